package checks

// all names every check in report order. Ids 1-8 are the specification's
// acceptance tests in its numbering; 8.1-8.7 are protocol basics under 8.
var all = []*Check{
	check1,
	check2,
	check3,
	check4,
	check5,
	check6,
	check7,
	check8,
	check8_1,
	check8_2,
	check8_3,
	check8_4,
	check8_5,
	check8_6,
	check8_7,
	check9,
	check10,
	check11,
	check12,
	check13,
	check14,
	check15,
	check16,
	check17,
	check18,
	check19,
	check20,
	check21,
	check22,
}

// All lists every check in report order.
func All() []*Check { return all }

// StdoutRule is the run-wide rule that stdout carries only JSON-RPC.
func StdoutRule() *Rule { return ruleStdout }

// TimeoutRule is the run-wide rule that every request is answered in time.
func TimeoutRule() *Rule { return ruleTimeouts }

// rules names every run-wide rule.
var rules = []*Rule{ruleStdout, ruleTimeouts, ruleLeaks}

// ruleNamed returns the run-wide rule with the given name.
func ruleNamed(name string) (*Rule, bool) {
	for _, r := range rules {
		if r.Name == name {
			return r, true
		}
	}
	return nil, false
}

// ByID returns the check with the given id.
func ByID(id string) (*Check, bool) {
	for _, c := range all {
		if c.ID == id {
			return c, true
		}
	}
	return nil, false
}

// protocolSession is the order the protocol checks probe in, in one
// process: 8.2 opens it with initialize, 8.6 and 8.7 judge that reply.
var protocolSession = []*Check{check8_2, check8_1, check8_3, check8_4, check8_5}

// ProtocolSession lists the probes of the protocol session in the order
// they are sent.
func ProtocolSession() []*Check { return protocolSession }
