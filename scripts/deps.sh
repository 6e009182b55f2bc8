#!/usr/bin/env bash
# Install the Debian packages the matrix needs, if any is missing. Each
# kernel source package of ci/matrix.json is installed at the version it
# says the series is tested on when Debian still has it; else at the
# version apt offers, with a loud warning (the report repeats it).
#
# Usage: scripts/deps.sh [--check]
#   --check  install nothing: exit 2, naming them, if packages are missing
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

check=n
case ${1:-} in
'') ;;
--check) check=y ;;
*) die "usage: ${0##*/} [--check]" ;;
esac

packages=(
	bc bison flex libssl-dev libelf-dev xz-utils make gcc
	gcc-arm-linux-gnueabihf qemu-system-x86 qemu-system-arm
	ccache shellcheck yamllint perl git python3 util-linux
	# checkpatch.pl runs scripts/spdxcheck.py with Debian's python3.
	python3-ply python3-git python3-yaml
	# ci/matrix.json is checked against ci/matrix.schema.json.
	python3-jsonschema
)

# missing PKG...: those of PKG... that are not installed.
missing() {
	local p status
	for p in "$@"; do
		status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
		[[ $status == ii* ]] || printf '%s\n' "$p"
	done
}
mapfile -t missing < <(missing "${packages[@]}")
[[ $check == n || ${#missing[@]} -eq 0 ]] ||
	die "missing packages: ${missing[*]} (scripts/deps.sh installs them)"

apt=()
# try_install PKG[=VERSION]...: install; apt-get's exit status.
try_install() {
	[[ ${#apt[@]} -gt 0 ]] || apt_setup
	note "installing: $*"
	# stdin from /dev/null: apt must not eat the list of kernels being read.
	"${apt[@]}" install -y --no-install-recommends "$@" </dev/null >>"$log" 2>&1
}
# apt_install PKG...: install, or stop with the end of apt's log.
apt_install() {
	try_install "$@" || { tail -n 20 "$log" >&2; die "apt-get could not install: $*"; }
}
apt_setup() {
	local sudo=() sig
	if [[ $(id -u) -ne 0 ]]; then
		command -v sudo >/dev/null || die "missing packages and not root: install them" \
			"by hand (${0##*/} --check names them)"
		sudo=(sudo -n)
	fi
	# In a session of its own: a signal that stops this script must not
	# leave dpkg half done. The script stops once apt-get is done.
	for sig in INT:130 TERM:143 HUP:129 QUIT:131; do
		# shellcheck disable=SC2064 # the status now, on purpose
		trap "exit ${sig#*:}" "${sig%:*}"
	done
	apt=(setsid -w "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q)
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	"${apt[@]}" update >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "apt-get update failed"; }
}
[[ ${#missing[@]} -eq 0 ]] || apt_install "${missing[@]}"

# python3 and its JSON Schema validator are there now: each kernel package
# of ci/matrix.json, at the version its series is tested on.
out=$(python3 -m sched_tinify info kernels) || die "cannot read the kernels of ci/matrix.json"
while read -r pkg want; do
	[[ -n $(missing "$pkg") ]] || continue
	[[ $check == n ]] || die "missing package: $pkg (scripts/deps.sh installs it)"
	if ! try_install "$pkg=$want"; then
		apt_install "$pkg"
		note "WARNING: $pkg $want, the version the series is tested on, is not available;" \
			"installed $(dpkg-query -W -f='${Version}' "$pkg") instead" \
			"(the report says so too)"
	fi
done <<<"$out"
