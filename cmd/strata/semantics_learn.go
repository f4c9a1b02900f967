package main

// semanticsUsage describes --semantics on the commands that learn and
// score theories.
const semanticsUsage = "coverage semantics: poss (drowning, the paper's), linear or lex"
