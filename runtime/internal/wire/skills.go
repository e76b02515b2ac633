package wire

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
