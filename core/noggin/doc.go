// Package noggin is the domain of noggin: the document model, paths, the
// atomic ops, the verbs, the CurrentTreeView, change diffs and the error
// model with its message catalog. It has no transport and no storage code;
// storage implements the Store interface declared here.
//
// Files:
//
//	model.go     Document, Item, Note
//	errors.go    Error, codes, the one message catalog
//	api.go       Op, Store, Engine, verb options, View, results, Change
//	paths.go     path grammar and resolution (Resolve, PathOf), the lookup index
//	ops.go       Apply: the six atomic ops, copy-on-write, insertion rule
//	validate.go  Validate: write-time invariants
//	verbs.go     the eleven verbs on Engine
//	views.go     the CurrentTreeView (BuildView)
//	diff.go      Diff and Equal
//	env.go       clock, timestamps, key sources, EngineFromEnv
//
// Documents are treated as immutable values: Apply returns a new document
// that shares every unchanged item with its input, and verbs never modify
// the documents a Store hands them. Verbs plan their ops inside
// Store.Update and may be planned twice (on the cached, then the fresh
// document); each plan depends only on the document it is given.
package noggin
