package main

// flagMeanings is the vocabulary of the command line: every flag name any
// command defines, with its one meaning. A flag of this name means this in
// every command that has it, and takes the same type of value
// (TestFlagVocabulary); the CLI reference lists the table
// (docs/cli.md). A new flag needs a line here, and a name that would mean
// something else needs another name (docs/cli-conventions.md).
var flagMeanings = map[string]string{
	// Everywhere.
	"help":    "the command's help",
	"version": "the version strata was built from",
	"output":  "the file or directory the command writes, atomically (-o; for a file, - is standard output)",
	"json":    "print the command's result as one JSON object on standard output, with the field names of the JSON API",
	"csv":     "print the command's records as CSV on standard output",
	"seed":    "the random seed of everything the command draws: the same seed gives the same output",
	"threads": "worker threads (0: one per CPU)",
	"timeout": "the time budget of the command's work: of a learning run, validation included (in bench: of each learning run), or of the whole command (0: none)",
	"format":  "the format of the file the command reads (auto: by its name or content)",
	"force":   "overwrite files that exist with other content",

	// Theories and their semantics.
	"semantics":      "how a possibilistic theory is read when the evidence clashes with it: poss, linear or lex",
	"semantics-list": "the semantics to learn and score one theory each under, comma-separated",
	"given":          "the evidence α: literals separated by commas",
	"simplify":       "simplify the theory first, keeping every answer",
	"hard":           "a file of hard rules (background knowledge): formulas that hold at weight 1, in every world",

	// Default bases.
	"relation":       "the inference relation of a default base: p, rational, lex, w or c",
	"queries":        "a file of queries to decide, one answer per query",
	"queries-format": "the format of the --queries file",
	"query-timeout":  "the time budget of each query (0: none)",
	"base":           "the belief base to use when a .cl file holds several",
	"weak":           "accept a weakly consistent default base",
	"ranks":          "print the ranking functions of the base",
	"ocf":            "the ranking function to print: z, c or all",

	// Learning: examples, and the learning protocol (protocolFlags).
	"pos":                 "a file of positive examples (defaults)",
	"neg":                 "a file of negative examples (non-defaults)",
	"test-pos":            "a file of positive test examples",
	"test-neg":            "a file of negative test examples",
	"iterations":          "at most this many iterations of a learning run (0: no limit)",
	"candidates":          "candidate clauses sampled per iteration (0: the default)",
	"patience":            "stop a learning run after this many iterations that improve nothing (0: never)",
	"folds":               "choose the number of iterations on held-out training data: K >= 2 folds of cross-validation, 1 one held-out part, 0 none",
	"validation":          "the share of the training data one held-out part holds out",
	"specialise":          "add up to this many literals to each iteration's chosen clause, from the antecedent of the example it was drawn from, while the training score rises (0: never)",
	"choose":              "how the number of iterations is chosen on the held-out score: one-se (the smallest within one standard error of the best), best, or paired (the smallest within one standard error of its paired difference from the best)",
	"restarts":            "after the held-out data chose the iterations, learn the final theory this many times with other seeds, within the iteration limit, and keep the one most accurate on the training data (0 or 1: once)",
	"runs":                "run the whole experiment this many times, with consecutive seeds from --seed, and summarise the runs",
	"validation-patience": "stop a validation run after this many iterations without a better held-out score (0: never)",
	"prune":               "prune the final theory of the clauses that too few training examples need, as the held-out data choose",
	"history":             "write the learning history (CSV) to this file",
	"plot":                "draw the learning curves to this .svg or .png file",
	"checkpoint":          "write the learner's state to this file after every iteration",
	"resume":              "continue a learning run from a checkpoint",
	"verbose":             "print a line per iteration on standard error",
	"exact":               "find a separating stratification exactly (Stratify-Separable)",

	// Markov logic networks.
	"test":           "a table to report the test pseudo-log-likelihood on",
	"max-depth":      "the longest path of a tree of the network's features",
	"min-leaf":       "the fewest training rows in a leaf",
	"penalty":        "the least log-likelihood gain of a split",
	"l2":             "the precision of the Gaussian prior on the weights",
	"entails":        "decide whether the evidence MAP-entails this literal",
	"map":            "the MAP solver: exact, or approx (MaxWalkSAT)",
	"flips":          "MaxWalkSAT flips per try",
	"tries":          "MaxWalkSAT restarts",
	"noise":          "MaxWalkSAT's probability of a random flip",
	"train-examples": "the number of training examples to draw",
	"test-examples":  "the number of test examples to draw",
	"max-evidence":   "the most literals in the evidence α of a drawn example",
	"per-evidence":   "the conclusions β drawn for each α",
	"slowest":        "list this many of the slowest queries",

	// Answer tables and crowd data.
	"test-fraction": "the share of the answers held out for testing, by whole annotators",
	"test-from":     "the answers read from this file or directory form the test set",
	"test-sessions": "the poker sessions whose hands form the test set",
	"small-folds":   "the folds that choose on a small table's split (bench tabular)",
	"large-folds":   "the held-out parts that choose on a large table's split (bench tabular)",
	"test-folds":    "split the data into K test folds for a cross-validated evaluation (crowd: by annotator; bench tabular: by row, stratified by class)",
	"at-least-one":  "the hard rules say that some action is chosen",
	"streets":       "keep decisions on these streets only",
	"max-hands":     "read at most this many hands",
	"annotator":     "the column of the annotator",
	"answer":        "the column of the answer",
	"dont-know":     "answer values that mean \"don't know\"",
	"actions":       "the actions; other answers are skipped",
	"situation":     "the situation columns",
	"ignore":        "columns that are not part of the situation",
	"describe":      "a named interval of a numeric column",
	"bins":          "bins of an automatically described numeric column",
	"confusion":     "print the confusion table",

	// Tables (CSV, TSV, ARFF or Parquet, one row per case).
	"table":             "a table with a header, one row per case: CSV, TSV or another delimiter, ARFF or Parquet, gzip-compressed or not",
	"table-format":      "the format of the --table file",
	"delimiter":         "the character between the fields of a delimited table",
	"duplicate-columns": "what to do with a column name a table's header repeats: rename, first or error",
	"keep":              "columns of the table copied into each prediction",
	"degrees":           "add each answer's degree: the necessity of its class, and of every class",
	"test-table":        "a test table with the columns of --table, scored at the end",
	"label":             "the class column of a table",
	"group":             "a column whose rows with one value stay in one held-out part",
	"features":          "the columns of a table to learn from",
	"numeric":           "the columns of a table that hold numbers",
	"skip-bad-rows":     "leave out the rows of a table that cannot be read, with a warning naming each, instead of failing",
	"explain":           "add to each answer the level and the rules that decide it",
	"variants":          "how a table's rows are encoded for the learner (cut points, literals), or the encodings to choose among on held-out rows",
	"grow":              "the candidates of an iteration also grown by information gain from the rows or situations they are drawn from",
	"tally":             "under lex, a level of one-literal rules that vote tried as a candidate",

	// The experiments and their baselines.
	"data":        "the public data directory",
	"quick":       "a small version of the experiment",
	"domains":     "run only these domains",
	"datasets":    "run only these datasets",
	"weka":        "run Weka's baselines",
	"xgboost":     "run the gradient-boosting baseline, XGBoost",
	"java-memory": "the Java heap for Weka",
	"examples":    "which action an answer's default states for the learner: its own, or its situation's most typical one",

	// The server.
	"addr":            "the address to listen on",
	"dir":             "the directory whose files requests may load",
	"checkpoints":     "the directory for the checkpoints of learning runs stopped at shutdown",
	"max-body":        "the largest request body, in bytes",
	"request-timeout": "the time budget of each request",
	"max-theories":    "the most theories and default bases stored",
	"max-runs":        "the most learning runs at once",
	"quiet":           "no access log",
	"allow-origin":    "an origin whose pages may use the API",
}
