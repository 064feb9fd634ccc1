package judge

import "testing"

// TestSecretNameShape: the shapes of a secret file's name and their
// benign twins (code, documentation, about-names, templates, bare words).
func TestSecretNameShape(t *testing.T) {
	for name, want := range map[string]bool{
		"terraform.tfvars": true, "prod.auto.tfvars": true, "x.tfvars.json": true, "deploy.ppk": true, "passwords.kdbx": true,
		"AuthKey_ABC123.p8": true, "release.jks": true, ".htpasswd": true, "wp-config.php": true, "local.settings.json": true,
		"client_secret.json": true, "clientSecret.json": true, "MyPasswords.csv": true, "GoogleService-Info.plist": false, "İ_token": true, "ẞ.json": false, "token.pickle": true, "token.json": true, "db_password.txt": true,
		"service-account-key.json": true, "api_key.txt": true, "appsettings.Production.json": true, "application-prod.yml": true,
		"cookies.txt": true, "wallet.dat": true, "deploy_token": true, ".token": true, "my-keypair.json": true,
		"terraform.tfvars.example": false, "variables.tf": false, "deploy.pub": false, "token.go": false, "password_reset.py": false,
		"secrets.md": false, "password-policy.json": false, "tokens.json": false, "token-list.json": false, "tokenizer.json": false,
		"appsettings.json": false, "appsettings.Development.json": false, "wp-config-sample.php": false, "keys.json": false,
		"key.json": false, "passwd": false, "secrets": false, "token": false, "get-login-password": false, "--with-token": false,
		"POSTGRES_PASSWORD=dev": false, "GITHUB_TOKEN": false, "test_token.json": false, "robots.txt": false, "host.json": false,
	} {
		if got := secretFileName(name); got != want {
			t.Errorf("secretFileName(%q) = %v, want %v", name, got, want)
		}
	}
}
