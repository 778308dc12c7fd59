package record

import "errors"

var errNoFIFO = errors.New("this system has no FIFOs")
