package providers

// Generic is any program that asks y/n questions or shows a menu; the
// command line comes after --.
const Generic = "generic"

func init() {
	register(&Provider{
		Name:    Generic,
		Title:   "any program that asks y/n questions or shows a menu (-- CMD ARGS…)",
		Profile: "generic",
		Tools:   []string{"Bash"},
	})
}
