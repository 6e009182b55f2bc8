#!/usr/bin/env bash
# Install the Debian packages the matrix needs, if any is missing. The
# kernel source package is installed at the version ci/matrix.json says
# the series is tested on when Debian still has it; else at the version
# apt offers, with a loud warning (the report repeats it).
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
	"$PKG" bc bison flex libssl-dev libelf-dev xz-utils make gcc
	gcc-arm-linux-gnueabihf qemu-system-x86 qemu-system-arm
	ccache shellcheck yamllint perl git python3 util-linux
	# checkpatch.pl runs scripts/spdxcheck.py with Debian's python3.
	python3-ply python3-git python3-yaml
	# ci/matrix.json is checked against ci/matrix.schema.json.
	python3-jsonschema
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $status == ii* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
[[ $check == n ]] || die "missing packages: ${missing[*]} (scripts/deps.sh installs them)"

note "installing: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
	command -v sudo >/dev/null ||
		die "missing packages (${missing[*]}) and not root: install them by hand"
	SUDO=(sudo -n)
else
	SUDO=()
fi
# In a session of its own: a signal that stops this script must not leave
# dpkg half done. The script stops once apt-get is done.
for sig in INT:130 TERM:143 HUP:129 QUIT:131; do
	# shellcheck disable=SC2064 # the status now, on purpose
	trap "exit ${sig#*:}" "${sig%:*}"
done
apt=(setsid -w "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# apt_install PKG...: install, or stop with the end of apt's log.
apt_install() {
	"${apt[@]}" install -y --no-install-recommends "$@" >>"$log" 2>&1 || {
		tail -n 20 "$log" >&2
		die "apt-get could not install: $*"
	}
}
others=()
for p in "${missing[@]}"; do [[ $p == "$PKG" ]] || others+=("$p"); done
"${apt[@]}" update >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "apt-get update failed"; }
[[ ${#others[@]} -eq 0 ]] || apt_install "${others[@]}"
if [[ " ${missing[*]} " == *" $PKG "* ]]; then
	# python3 is there now: read the tested version from ci/matrix.json.
	want=$(python3 -m sched_tinify info version)
	if ! "${apt[@]}" install -y --no-install-recommends "$PKG=$want" >>"$log" 2>&1; then
		apt_install "$PKG"
		note "WARNING: $PKG $want, the version the series is tested on, is not available;" \
			"installed $(dpkg-query -W -f='${Version}' "$PKG") instead" \
			"(the report says so too)"
	fi
fi
