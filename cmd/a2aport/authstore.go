package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The tokens auth login obtains are kept one file per agent, mode 0600 in a folder of mode 0700,
// under the user config directory (a2aport/tokens/), and sent by every later command to that
// agent that is given no credential of its own (SPEC.md §12.2). They are configuration, not
// session state: nothing of a task is in them. Deleting the file forgets the token.

// storedLogin is one agent's token.
type storedLogin struct {
	Card        string    `json:"card"`
	AccessToken string    `json:"accessToken"`
	TokenType   string    `json:"tokenType,omitempty"`
	Expires     time.Time `json:"expires,omitempty"`
	Flow        string    `json:"flow"`
}

// tokenPath is the file of the agent whose card is at ref.
func tokenPath(ref string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(ref))
	return filepath.Join(dir, "a2aport", "tokens", fmt.Sprintf("%x.json", sum[:8])), nil
}

// saveToken writes the agent's token, readable by the user alone.
func saveToken(login storedLogin) (string, error) {
	path, err := tokenPath(login.Card)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	data, err := json.Marshal(login)
	if err != nil {
		return "", err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}

// errTokenExpired: the stored token's time is over (auth login again).
var errTokenExpired = errors.New("the stored token has expired")

// loadToken is the agent's token, if one is stored and still valid.
func loadToken(ref string) (string, error) {
	path, err := tokenPath(ref)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var login storedLogin
	if err := json.Unmarshal(data, &login); err != nil {
		return "", err
	}
	if !login.Expires.IsZero() && time.Now().After(login.Expires) {
		return "", errTokenExpired
	}
	return login.AccessToken, nil
}

// storedToken is the token auth login keeps for the agent whose card is at ref, "" when there
// is none or it expired.
func storedToken(ref string) string {
	tok, err := loadToken(ref)
	if err != nil {
		return ""
	}
	return tok
}
