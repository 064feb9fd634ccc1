package judge

import "strings"

// A secret file by the shape of its name, wherever it lies, the project's
// own files included (blind attack 2026-12-03b: terraform.tfvars,
// client_secret.json, deploy.ppk, passwords.kdbx, wp-config.php passed).
// Two shapes: the kind of file (a key, a password vault, infrastructure's
// variables: the extension says it), or a data file whose name says it is
// a credential (token.pickle, db_password.txt, client_secret.json). A file
// of code or documentation named after the concept (token.go,
// password_reset.py, secrets.md), one whose name says it is about the
// concept (password-policy.json, token-list.json, tokens.json of a design
// system), and a fixture or template (terraform.tfvars.example) are not.

// secretKinds end the names of files that are a credential whatever they
// are called: infrastructure's variables, PuTTY's and PKCS#8 keys,
// password vaults and keychains, Java key stores, web servers' password
// files.
var secretKinds = []string{".tfvars", ".tfvars.json", ".ppk", ".kdbx", ".kdb", ".keychain", ".keychain-db", ".psafe3",
	".opvault", ".p8", ".pk8", ".pkcs12", ".jceks", ".bks", ".htpasswd", ".htdigest"}

// appSecretNames are the files in which an application or a tool keeps
// its own passwords and tokens by convention: WordPress's and MediaWiki's
// database passwords, Azure Functions' local settings, Composer's and
// Kaggle's tokens, Google's OAuth token caches, exported browser cookies,
// s3cmd's and boto's keys.
var appSecretNames = []string{".htpasswd", ".htdigest", "htpasswd", "wp-config.php", "localsettings.php",
	"local.settings.json", "auth.json", "kaggle.json", "token.pickle", "cookies.txt", "cookies.sqlite", ".s3cfg", ".boto"}

// secretNameWords in a data file's name say it holds a credential;
// "tokens" (a design system's, a chain's token list) and "key" alone
// (keys of a map) do not, "key" after a word that makes it a credential
// does (api_key.txt, service-key.json, private.key is a kind).
var (
	secretNameWords = []string{"secret", "secrets", "password", "passwords", "passwd", "credential", "credentials", "creds",
		"apikey", "apikeys", "privkey", "token", "cookies", "cookiejar", "keystore", "keypair", "wallet", "mnemonic"}
	keyQualifiers = []string{"api", "access", "private", "secret", "service", "signing", "master", "deploy", "encryption", "license", "account"}
	// aboutWords say the file is about the concept, not one of it
	aboutWords = []string{"policy", "policies", "reset", "schema", "strength", "rule", "rules", "list", "lists", "type", "types",
		"spec", "generator", "validator", "form", "meter", "hint", "hints", "format", "template", "templates", "example",
		"examples", "sample", "samples", "test", "tests", "fixture", "fixtures", "mock", "mocks", "fake", "dummy", "stub", "demo",
		"doc", "docs", "readme", "help", "manager", "metadata", "public", "pub"}
	// dataExts are the kinds of file that hold values, not code or prose
	dataExts = []string{"", "json", "yml", "yaml", "toml", "txt", "ini", "conf", "cfg", "properties", "xml", "pickle", "pkl",
		"dat", "db", "sqlite", "sqlite3", "csv", "plist", "bin", "env"}
	// deployEnvs are the deployments whose configuration carries the real
	// credentials (appsettings.Production.json, application-prod.yml)
	deployEnvs = []string{"production", "prod", "staging", "live"}
)

// secretNameShape reports a base name (and its lower case) shaped like a
// secret file's.
func secretNameShape(base, lower string) bool {
	if strings.HasPrefix(lower, "-") || strings.Contains(lower, "=") {
		return false // an option or an assignment read as a name (--with-token, POSTGRES_PASSWORD=dev)
	}
	if len(base) != len(lower) {
		base = lower // a letter whose lower case is longer: no capitals to split on
	}
	for _, n := range appSecretNames {
		if lower == n {
			return true
		}
	}
	for _, k := range secretKinds {
		if strings.HasSuffix(lower, k) && len(lower) > len(k) {
			return true
		}
	}
	stem, ext := lower, ""
	if k := strings.LastIndexByte(lower, '.'); k > 0 {
		stem, ext = lower[:k], lower[k+1:]
	}
	if !contains(dataExts, ext) {
		return false // code, documentation, markup, media
	}
	if ext == "" && !strings.HasPrefix(lower, ".") && (!strings.Contains(stem, "_") || strings.ToLower(base) != base) {
		// a bare word is a subcommand or a name more often than a file
		// (gcloud secrets list, gh auth token, aws ... get-login-password,
		// $GITHUB_TOKEN's name): a dot file (.token) or a file's name of
		// joined words (deploy_token, db_password) is one
		return false
	}
	words := strings.FieldsFunc(camelSplit(base[:len(stem)]), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	for _, w := range words {
		if contains(aboutWords, w) {
			return false
		}
	}
	if stem == "passwd" || stem == "passwd-" {
		return false // the account list (/etc/passwd and its backup), public; the program of that name
	}
	for i, w := range words {
		if contains(secretNameWords, w) || w == "key" && i > 0 && contains(keyQualifiers, words[i-1]) {
			return true
		}
	}
	// the configuration of a deployment: appsettings.Production.json,
	// application-prod.yml
	if len(words) >= 2 && (words[0] == "appsettings" || words[0] == "application") && contains(deployEnvs, words[len(words)-1]) {
		return true
	}
	return false
}

// camelSplit lowers s with a space where a capital follows a small letter
// or a digit: clientSecret is the words client and secret.
func camelSplit(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9') {
				b.WriteByte(' ')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
