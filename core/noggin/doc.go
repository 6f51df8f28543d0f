// Package noggin is the domain of noggin: the document model, paths, the
// atomic ops, the verbs, the CurrentTreeView, change diffs and the error
// model with its message catalog. It has no transport and no storage code;
// storage implements the Store interface declared here.
package noggin
