// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmemleak-init: the /init of the debug cells' initramfs
 * (sched_tinify/run.py). The suites run in kernel_init, before any
 * user space; the debug cells boot with kunit_shutdown after "--" (an
 * argument of init, no longer of the kernel), so the kernel goes on to
 * this program once the suites are done. It mounts debugfs, waits until
 * what the suites allocated is older than kmemleak's minimum age (5 s),
 * scans twice (the first scan records each object's checksum; an object
 * is reported when it is unreferenced and its checksum has not changed
 * since the scan before), prints kmemleak's report and restarts the
 * machine, which ends QEMU (-no-reboot). Built without a C library, with the kernel tree's
 * tools/include/nolibc. Every line of its own starts with "kmemleak-init: ";
 * sched_tinify/parse.py wants the "done" line and no "unreferenced object".
 */
#include <linux/reboot.h>

#define KMEMLEAK "/d/kmemleak"

static void say(const char *s)
{
	write(1, s, strlen(s));
}

/* Write @cmd to kmemleak's control file; 0 or a negative errno. */
static int kmemleak(const char *cmd)
{
	int fd = open(KMEMLEAK, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, cmd, strlen(cmd)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int main(void)
{
	static char buf[4096];
	long n, total = 0;
	int fd;

	say("kmemleak-init: start\n");
	if (mkdir("/d", 0700) < 0 && errno != EEXIST) {
		say("kmemleak-init: error: cannot make /d\n");
		goto out;
	}
	if (mount("debugfs", "/d", "debugfs", 0, NULL) < 0) {
		say("kmemleak-init: error: cannot mount debugfs\n");
		goto out;
	}
	sleep(6);
	if (kmemleak("scan") < 0 || kmemleak("scan") < 0) {
		say("kmemleak-init: error: cannot scan (kmemleak off or disabled?)\n");
		goto out;
	}
	fd = open(KMEMLEAK, O_RDONLY);
	if (fd < 0) {
		say("kmemleak-init: error: cannot read " KMEMLEAK "\n");
		goto out;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		write(1, buf, n);
		total += n;
	}
	close(fd);
	if (n < 0) {
		say("kmemleak-init: error: cannot read " KMEMLEAK " to its end\n");
		goto out;
	}
	say(total ? "kmemleak-init: done: leaks reported\n" :
		    "kmemleak-init: done: no leak reported\n");
out:
	reboot(LINUX_REBOOT_CMD_RESTART);
	return 1;
}
