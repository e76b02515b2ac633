package claude

import "strings"

// Start-up failures: a CLI that refuses to start (a managed policy that
// forbids what the launch asks for, a sign-in its organization does not
// allow, …) writes a result naming the reason before it exits. The host
// asks for it (CLAUDE_CODE_STARTUP_FAILURE_RESULTS, see Options.environ),
// and Start returns it as a *StartupError.

// A StartupFailureReason says why the CLI refused to start, so that a
// host can offer the fix instead of a retry (the Agent SDK's
// SDKStartupFailureReason).
type StartupFailureReason string

// The reasons of the pinned CLI, in the words of sdk.d.ts.
const (
	// StartupOrgPinAPIKeyConflict: managed settings pin a first-party or
	// Cloud gateway sign-in, and an Anthropic API key or auth token is
	// configured instead.
	StartupOrgPinAPIKeyConflict StartupFailureReason = "org_pin_api_key_conflict"
	// StartupProviderNotAllowed: managed settings list the API providers
	// this machine may use (allowedProviders), and the session is set up
	// for one that is not listed.
	StartupProviderNotAllowed StartupFailureReason = "provider_not_allowed"
	// StartupOrgVerifyFailed: the sign-in's organization could not be
	// verified against the pin (network, or a revoked token).
	StartupOrgVerifyFailed StartupFailureReason = "org_verify_failed"
	// StartupOrgPinMismatch: the sign-in belongs to an organization the
	// pin does not allow.
	StartupOrgPinMismatch StartupFailureReason = "org_pin_mismatch"
	// StartupManagedSettingsInvalid: managed policy settings could not be
	// read, the pin names no organization, or managed model settings leave
	// no allowed model.
	StartupManagedSettingsInvalid StartupFailureReason = "managed_settings_invalid"
	// StartupRemoteSettingsRequiredUnavailable: managed settings the
	// organization requires could not be loaded.
	StartupRemoteSettingsRequiredUnavailable StartupFailureReason = "remote_settings_required_unavailable"
	// StartupGatewaySigninRequired: the Cloud gateway ended this sign-in.
	StartupGatewaySigninRequired StartupFailureReason = "gateway_signin_required"
	// StartupGatewayAccessDenied: the Cloud gateway refused managed
	// settings for this account.
	StartupGatewayAccessDenied StartupFailureReason = "gateway_access_denied"
	// StartupProxyInvalid: a proxy setting is not a complete URL.
	StartupProxyInvalid StartupFailureReason = "proxy_invalid"
	// StartupTempDirUnusable: the per-user temp directory is unsafe or
	// could not be created.
	StartupTempDirUnusable StartupFailureReason = "temp_dir_unusable"
	// StartupCWDUnavailable: the working directory (Options.Dir) was
	// deleted, moved or cannot be read.
	StartupCWDUnavailable StartupFailureReason = "cwd_unavailable"
	// StartupShellToolMissing: Windows has no shell tool.
	StartupShellToolMissing StartupFailureReason = "shell_tool_missing"
	// StartupSessionHeldByBackground: the conversation to resume or
	// continue is running as a background session.
	StartupSessionHeldByBackground StartupFailureReason = "session_held_by_background"
	// StartupWorktreeResumeRefused: the resume was refused because the
	// session's worktree failed its safety checks or the resume was
	// launched from inside it.
	StartupWorktreeResumeRefused StartupFailureReason = "worktree_resume_refused"
	// StartupWorktreeUnverified: the session's worktree could not be
	// verified right now; retrying may succeed.
	StartupWorktreeUnverified StartupFailureReason = "worktree_unverified"
	// StartupCLIVersionTooOld: this Claude Code version is below the
	// minimum Anthropic requires.
	StartupCLIVersionTooOld StartupFailureReason = "cli_version_too_old"
	// StartupBypassRoot: bypass permissions mode was asked for while
	// running as root.
	StartupBypassRoot StartupFailureReason = "bypass_root"
	// StartupOrgConfigRequiredUnavailable: the organization requires its
	// policy limits and managed settings before a session starts, and they
	// could not be loaded; retrying may succeed.
	StartupOrgConfigRequiredUnavailable StartupFailureReason = "org_config_required_unavailable"
	// StartupOrgConfigRefused: the organization requires its policy
	// limits and managed settings, and Anthropic refused them for this
	// sign-in; signing in again or an administrator's change is the fix.
	StartupOrgConfigRefused StartupFailureReason = "org_config_refused"
	// StartupSandboxRequiredUnavailable: a working sandbox is required
	// and it cannot run in this session.
	StartupSandboxRequiredUnavailable StartupFailureReason = "sandbox_required_unavailable"
	// StartupInitializeNotFirst: the CLI's first input line was not the
	// initialize request.
	StartupInitializeNotFirst StartupFailureReason = "initialize_not_first"
	// StartupConfigFileInvalid: a configuration file read at start-up is
	// not valid JSON; the message names it.
	StartupConfigFileInvalid StartupFailureReason = "config_file_invalid"
	// StartupManagedSettingsNotDelivered and
	// StartupInitializeFieldsNotDelivered: the managed settings, or
	// other fields, that the launch said the initialize request carries
	// could not be used.
	StartupManagedSettingsNotDelivered  StartupFailureReason = "managed_settings_not_delivered"
	StartupInitializeFieldsNotDelivered StartupFailureReason = "initialize_fields_not_delivered"
	// StartupSideloadFlagsDisabled: managed settings set
	// disableSideloadFlags, and the launch brings plugins or MCP servers
	// of its own: Options.Plugins or Options.MCPServers, however
	// delivered. The servers of this process (Options.Servers) and
	// Options.Agents are not refused.
	StartupSideloadFlagsDisabled StartupFailureReason = "sideload_flags_disabled"
)

// A StartupError reports that the CLI refused to start. Start and Query
// return it; errors.As finds it, and errors.As finds the *CLIError that
// says how the CLI ended in it.
type StartupError struct {
	Reason StartupFailureReason
	// Message is the CLI's explanation, such as what a managed policy
	// forbids and whom to ask.
	Message string
	// Err says how the CLI ended: a *CLIError, with its stderr.
	Err error
}

func (e *StartupError) Error() string {
	return "claude: the CLI refused to start (" + string(e.Reason) + "): " + e.Message
}

// Unwrap returns Err.
func (e *StartupError) Unwrap() error { return e.Err }

// startupError is the *StartupError of a CLI that wrote the start-up
// failure r and ended as err; err itself when r is nil.
func startupError(r *ResultMessage, err error) error {
	if r == nil {
		return err
	}
	return &StartupError{Reason: r.StartupFailureReason, Message: strings.Join(r.Errors, "; "), Err: err}
}
