// Package dataset reads and writes the data that strata learns from and
// exports to other tools: default-rule datasets (positive and negative
// examples, one rule per line, compatible with the paper's Java tool), hard
// rules (one clause per line), and Weka's ARFF tables for the baselines.
package dataset
