package surface

import (
	"strings"

	"golang.org/x/mod/semver"
)

// NewMajor reports whether version new is a new major version after old,
// by semantic versioning (a leading v is optional): its major number is
// greater, or, both being 0.x, its minor number is (semver lets anything
// change in 0.x; a 0.x release that breaks clients says so in its minor
// number, as Cargo and npm's ^ read it). A version that is not semver
// is never a new major one.
func NewMajor(old, new string) bool {
	o, n := canonicalVersion(old), canonicalVersion(new)
	if !semver.IsValid(o) || !semver.IsValid(n) {
		return false
	}
	if semver.Major(o) == "v0" && semver.Major(n) == "v0" {
		return semver.Compare(semver.MajorMinor(n), semver.MajorMinor(o)) > 0
	}
	return semver.Compare(semver.Major(n), semver.Major(o)) > 0
}

func canonicalVersion(v string) string {
	if v != "" && !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	return v
}
