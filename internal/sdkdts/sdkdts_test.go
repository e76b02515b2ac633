package sdkdts

import (
	"slices"
	"strings"
	"testing"
)

// older and newer are two small sdk.d.ts in the real file's layout (stray
// carriage returns included): newer adds an option, a hook event, a
// control subtype and a start-up failure reason, changes a method's
// result and an option's doc, and drops a function.
const older = `import type { Readable } from 'stream';

/**
 * Removes a session.
 */
export declare function deleteSession(_id: string): Promise<void>;

export declare function gone(): void;

export declare const HOOK_EVENTS: readonly ['PreToolUse', 'Stop'];

export declare type Options = {
    /**
     * Controller for cancelling the query.
     */
    abortController?: AbortController;
` + "\r\n\r" + `
    /**
     * Checkpoint files.
     */
    enableFileCheckpointing?: boolean;
    nested?: {
        inner: string;
    } | undefined;
};

export declare interface Query extends AsyncGenerator<SDKMessage, void> {
    /**
     * Change the permission mode.
     */
    setPermissionMode(mode: PermissionMode): Promise<void>;
    interrupt(): Promise<void>;
}

declare type SDKControlRequestInner = SDKControlInterruptRequest | SDKHookCallbackRequest;

declare type SDKControlInterruptRequest = {
    subtype: 'interrupt';
};

declare type SDKHookCallbackRequest = {
    subtype: 'hook_callback';
    callback_id: string;
};

export declare type SDKStartupFailureReason = 'proxy_invalid' | 'bypass_root';

export { deleteSession }
`

var newer = strings.NewReplacer(
	"export declare function gone(): void;\n", "",
	"'PreToolUse', 'Stop'", "'PreToolUse', 'Stop', 'PreSkillShellCommand'",
	"     * Checkpoint files.\n", "     * Checkpoint files.\n     *\n     * An administrator can keep it off.\n",
	"    nested?: {", "    /**\n     * Says whether.\n     */\n    added?: boolean;\n    nested?: {",
	"Promise<void>;\n    interrupt", "Promise<{ mode?: PermissionMode } | undefined>;\n    interrupt",
	"SDKControlInterruptRequest | SDKHookCallbackRequest;", "SDKControlInterruptRequest | SDKHookCallbackRequest | SDKControlSetModelRequest;\n\ndeclare type SDKControlSetModelRequest = {\n    subtype: 'set_model';\n    model?: string;\n};",
	"'proxy_invalid' | 'bypass_root'", "'proxy_invalid' | 'bypass_root' | 'sideload_flags_disabled'",
).Replace(older)

func TestParse(t *testing.T) {
	api, err := Parse(older)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		part      string
		got, want []string
	}{
		{"options", Names(api.Options), []string{"abortController", "enableFileCheckpointing", "nested"}},
		{"query", Names(api.Query), []string{"setPermissionMode", "interrupt"}},
		{"functions", Names(api.Functions), []string{"deleteSession", "gone"}},
		{"hook events", api.HookEvents, []string{"PreToolUse", "Stop"}},
		{"control subtypes", Names(api.ControlSubtypes), []string{"interrupt", "hook_callback"}},
		{"start-up failure reasons", api.StartupFailureReasons, []string{"proxy_invalid", "bypass_root"}},
		{"types", Names(api.Types), []string{"SDKControlInterruptRequest", "SDKHookCallbackRequest"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %q, want %q", c.part, c.got, c.want)
		}
	}
	// A member's text is its doc comment and every line of it.
	if got, want := api.Options[2].Text, "    nested?: {\n        inner: string;\n    } | undefined;"; got != want {
		t.Errorf("nested member:\n%s\nwant\n%s", got, want)
	}
	if got, want := api.Functions[0].Text, "/**\n * Removes a session.\n */\nexport declare function deleteSession(_id: string): Promise<void>;"; got != want {
		t.Errorf("function:\n%s\nwant\n%s", got, want)
	}
}

// TestParseMissing: a file without what the host mirrors is an error,
// not an empty list.
func TestParseMissing(t *testing.T) {
	for _, drop := range []string{"export declare type Options = {", "export declare interface Query", "HOOK_EVENTS", "declare type SDKHookCallbackRequest"} {
		if _, err := Parse(strings.Replace(older, drop, "export declare type Renamed = {", 1)); err == nil {
			t.Errorf("without %q: no error", drop)
		}
	}
}

func TestDiff(t *testing.T) {
	a, err := Parse(older)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse(newer)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	Diff(&out, a, b)
	want := `## Options members: 3, then 4
added: added
      /**
       * Says whether.
       */
      added?: boolean;
changed (doc): enableFileCheckpointing
  + *
  + * An administrator can keep it off.

## Query methods: 2, then 2
changed (declaration): setPermissionMode
  - setPermissionMode(mode: PermissionMode): Promise<void>;
  + setPermissionMode(mode: PermissionMode): Promise<{ mode?: PermissionMode } | undefined>;

## exported functions: 2, then 1
removed: gone

## hook events (HOOK_EVENTS): 2, then 3
added: PreSkillShellCommand

## control subtypes (SDKControlRequestInner): 2, then 3
added: set_model
  declare type SDKControlSetModelRequest = {
      subtype: 'set_model';
      model?: string;
  };

## start-up failure reasons (SDKStartupFailureReason): 2, then 3
added: sideload_flags_disabled

## other declarations: 2, then 3
added: SDKControlSetModelRequest
  declare type SDKControlSetModelRequest = {
      subtype: 'set_model';
      model?: string;
  };

`
	if out.String() != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", out.String(), want)
	}
	// Nothing changed, nothing listed.
	out.Reset()
	Diff(&out, a, a)
	if strings.Contains(out.String(), "added") || strings.Contains(out.String(), "changed") || strings.Contains(out.String(), "removed") {
		t.Errorf("Diff of a file with itself:\n%s", out.String())
	}
}
