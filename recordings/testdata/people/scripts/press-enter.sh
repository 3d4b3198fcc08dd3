#!/bin/sh
# Pauses like an installer or a build script that wants the person to read
# something first: "Press Enter to continue..." and a line read from the
# terminal. Used for recordings/testdata/people/press-enter.cast.
printf 'Build finished: 3 targets, 0 warnings.\n'
printf 'Review the log above.\n'
printf 'Press Enter to continue...'
read -r _
printf 'Continuing.\n'
