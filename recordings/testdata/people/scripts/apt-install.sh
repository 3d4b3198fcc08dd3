#!/bin/sh
# Imitates `apt install demo-tool` as far as its question, in apt's exact
# wording (apt 2.6, Debian 12), and installs nothing: a package list, then
# "Do you want to continue? [Y/n] ". Enter or y/Y/yes goes on; n aborts
# with apt's "Abort." and status 1, as apt does. Used for the apt-*.cast
# recordings in recordings/testdata/people.
cat <<'LIST'
Reading package lists... Done
Building dependency tree... Done
Reading state information... Done
The following additional packages will be installed:
  libdemo-common libdemo2
Suggested packages:
  demo-tool-doc
The following NEW packages will be installed:
  demo-tool libdemo-common libdemo2
0 upgraded, 3 newly installed, 0 to remove and 0 not upgraded.
Need to get 1,234 kB of archives.
After this operation, 4,567 kB of additional disk space will be used.
LIST
printf 'Do you want to continue? [Y/n] '
read -r answer
case "$answer" in
'' | [Yy] | [Yy][Ee][Ss]) ;;
*)
	echo 'Abort.'
	exit 1
	;;
esac
echo 'Get:1 http://deb.debian.org/debian bookworm/main amd64 libdemo-common all 1.0-1 [12.3 kB]'
echo 'Fetched 1,234 kB in 0s (0 B/s)'
echo 'Selecting previously unselected package demo-tool.'
echo 'Setting up demo-tool (1.0-1) ...'
echo '(nothing was installed: this is an imitation for a recording)'
