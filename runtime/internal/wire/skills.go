package wire

import "strings"

// ExtSkills names the skills extension (SEP-2640): a server serves Agent
// Skills, folders of files with a SKILL.md at their root, as resources
// under skill:// URIs, lists them with skills/list and describes one with
// skills/get; with directoryRead, resources/directory/read lists the
// children of a folder.
const ExtSkills = "io.modelcontextprotocol/skills"

// The methods of the skills extension (ExtSkills).
const (
	MethodSkillsList    = "skills/list"
	MethodSkillsGet     = "skills/get"
	MethodDirectoryRead = "resources/directory/read"
)

// MIMEDirectory is the MIME type of a directory resource, whose children
// resources/directory/read lists.
const MIMEDirectory = "inode/directory"

// ValidSkillName reports whether name is a skill's name by the Agent
// Skills specification's rules: 1 to 64 lower-case letters, digits and
// hyphens, no hyphen first, last or twice in a row.
func ValidSkillName(name string) bool {
	if len(name) == 0 || len(name) > 64 || name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-') }) < 0
}
