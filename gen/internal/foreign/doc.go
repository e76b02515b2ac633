// Package foreign tests the generator on types taken from widely used
// modules, as real servers take them: go-github's, the Kubernetes API's,
// google/uuid's, zap's, x/text's and the standard library's. It is a module
// of its own, so that the rest of the repository does not depend on them.
// Its tools are in package tools; its tests serve them.
package foreign
