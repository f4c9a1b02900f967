// Package football turns real NFL play calls into the answers of the paper's
// American-football study (§5.2): each play becomes a situation for the
// offence, described by field position, down and distance, time left and
// score difference, and the team's play call (punt, field goal, run, pass,
// kneel down) is its answer; the team with the ball is the annotator.
//
// It reads three CSV layouts, recognised exactly by their header (a header
// that fits none or more than one is an error): nflscrapR's legacy
// play-by-play (PlayType, yrdline100, TimeSecs, ScoreDiff, posteam, …), the
// current nflscrapR and nflfastR play-by-play (play_type, yardline_100,
// quarter_seconds_remaining, score_differential, down, two_point_attempt,
// posteam, …), and the fourth-down decisions of the fourth_calculator
// project (the same columns without down: every row is a fourth down).
package football

import (
	"slices"
	"strconv"
)

// Actions are the play calls of the paper's study, as atoms.
var Actions = []string{"punt", "field_goal", "run", "pass", "kneel"}

// Situation is a game situation from the offence's point of view.
type Situation struct {
	Down        int // 1 to 4
	ToGo        int // yards to a first down
	YardsToGoal int // yards to the opponent's goal line, 1 to 99
	Quarter     int // 1 to 4; 5 or more is overtime
	// SecondsInQuarter is the time left in the quarter (ignored in overtime).
	SecondsInQuarter int
	ScoreDiff        int // offence minus defence
}

// Descriptor names and their definitions, in the order Descriptors lists
// them; the README's vocabulary table is generated from this list.
var Vocabulary = []struct{ Name, Meaning string }{
	{"down_1 … down_4", "the down"},
	{"distance_short", "3 yards or fewer to go"},
	{"distance_medium", "4 to 7 yards to go"},
	{"distance_long", "8 or more yards to go"},
	{"backed_up", "inside the offence's own 10-yard line (90 or more yards to the goal)"},
	{"own_territory", "in the offence's own half (more than 50 yards to the goal)"},
	{"opponent_territory", "in the opponent's half (50 yards or fewer to the goal)"},
	{"field_goal_range", "35 yards or fewer to the goal (a kick of about 52 yards or shorter)"},
	{"red_zone", "20 yards or fewer to the goal"},
	{"goal_line", "5 yards or fewer to the goal"},
	{"quarter_1 … quarter_4, overtime", "the period"},
	{"two_minutes_left_in_half", "2nd or 4th quarter with 2:00 or less left in it"},
	{"under_5_minutes_left_in_game", "4th quarter with 5:00 or less left"},
	{"tied", "the score is level"},
	{"leading_by_1_to_8", "ahead by one score at most"},
	{"leading_by_9_to_16", "ahead by two scores at most"},
	{"leading_by_17_or_more", "ahead by three scores or more"},
	{"trailing_by_1_to_8", "behind by one score at most"},
	{"trailing_by_9_to_16", "behind by two scores at most"},
	{"trailing_by_17_or_more", "behind by three scores or more"},
}

// Descriptors returns the names of the descriptors that hold in s, sorted.
func (s Situation) Descriptors() []string {
	d := []string{"down_" + strconv.Itoa(s.Down)}
	switch {
	case s.ToGo <= 3:
		d = append(d, "distance_short")
	case s.ToGo <= 7:
		d = append(d, "distance_medium")
	default:
		d = append(d, "distance_long")
	}
	y := s.YardsToGoal
	if y > 50 {
		d = append(d, "own_territory")
	} else {
		d = append(d, "opponent_territory")
	}
	for _, z := range []struct {
		ok   bool
		name string
	}{{y >= 90, "backed_up"}, {y <= 35, "field_goal_range"}, {y <= 20, "red_zone"}, {y <= 5, "goal_line"}} {
		if z.ok {
			d = append(d, z.name)
		}
	}
	if s.Quarter >= 5 {
		d = append(d, "overtime")
	} else {
		d = append(d, "quarter_"+strconv.Itoa(s.Quarter))
		if (s.Quarter == 2 || s.Quarter == 4) && s.SecondsInQuarter <= 120 {
			d = append(d, "two_minutes_left_in_half")
		}
		if s.Quarter == 4 && s.SecondsInQuarter <= 300 {
			d = append(d, "under_5_minutes_left_in_game")
		}
	}
	d = append(d, scoreDescriptor(s.ScoreDiff))
	slices.Sort(d)
	return d
}

func scoreDescriptor(diff int) string {
	if diff == 0 {
		return "tied"
	}
	side := "leading_by_"
	if diff < 0 {
		side, diff = "trailing_by_", -diff
	}
	switch {
	case diff <= 8:
		return side + "1_to_8"
	case diff <= 16:
		return side + "9_to_16"
	}
	return side + "17_or_more"
}

// DescriptorNames returns the football vocabulary, sorted: every descriptor
// a situation can hold, whatever the data. Every file built from football
// data has these attributes, in this order.
func DescriptorNames() []string {
	d := []string{"distance_short", "distance_medium", "distance_long", "backed_up", "own_territory",
		"opponent_territory", "field_goal_range", "red_zone", "goal_line", "overtime",
		"two_minutes_left_in_half", "under_5_minutes_left_in_game", "tied"}
	for i := 1; i <= 4; i++ {
		d = append(d, "down_"+strconv.Itoa(i), "quarter_"+strconv.Itoa(i))
	}
	for _, side := range []string{"leading_by_", "trailing_by_"} {
		d = append(d, side+"1_to_8", side+"9_to_16", side+"17_or_more")
	}
	slices.Sort(d)
	return d
}
