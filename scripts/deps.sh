#!/usr/bin/env bash
# Install the Debian packages the matrix needs, if any is missing.
#
# Usage: scripts/deps.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

packages=(
	"$PKG" bc bison flex libssl-dev libelf-dev xz-utils make gcc
	gcc-arm-linux-gnueabihf qemu-system-x86 qemu-system-arm
	ccache shellcheck yamllint perl git python3
	# checkpatch.pl runs scripts/spdxcheck.py with Debian's python3.
	python3-ply python3-git
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $status == ii* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

note "installing: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
	command -v sudo >/dev/null || die "missing packages (${missing[*]}) and not root: install them by hand"
	SUDO=(sudo -n)
else
	SUDO=()
fi
apt=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "${apt[@]}" update >"$log" 2>&1 ||
	! "${apt[@]}" install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "apt-get could not install: ${missing[*]}"
fi
