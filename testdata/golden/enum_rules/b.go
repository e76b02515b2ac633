package enum_rules

// The other file's constants of Category.
const (
	Toys  Category = "toys"
	Games Category = "games"
)
