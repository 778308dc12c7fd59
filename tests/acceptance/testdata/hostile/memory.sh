#!/bin/sh
# Takes 4 GiB before it would answer.
exec python3 -c 'x = bytearray(4 << 30); print("PWNED took 4 GiB")'
