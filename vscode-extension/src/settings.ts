/**
 * VS Code `dllog.*` settings → the settings object the dllog language server reads.
 *
 * Pure module (no `vscode` import) so it can be unit-tested with plain Node.
 *
 * The server (lsp_server/settings.py) accepts, under the section "dllog":
 *   select, extendSelect, ignore           lists of rule codes or prefixes (DLL, DLL2, DLL200)
 *   backend                                one of BACKENDS, or absent for "decide per file"
 *   severity                               { code-or-prefix: error|warning|information|hint }
 *   run                                    "onType" | "onSave"
 *   enable                                 boolean
 *   codeAction.fixViolation.enable         boolean
 *   codeAction.disableRuleComment.enable   boolean
 *
 * What this mapping decides on the client side:
 *   - an empty `select` means "not set" (the project's [tool.dllog] or the defaults apply), never
 *     "select nothing"; empty `ignore`/`extendSelect` are left out too;
 *   - codes are trimmed, upper-cased and de-duplicated; entries that are not DLL codes/prefixes
 *     are dropped and reported in `problems` (so one typo does not disable the whole list);
 *   - `backend: "auto"` (or empty) is left out; an unknown backend is dropped and reported;
 *   - severity levels accept common spellings (`warn`, `info`, `information`, `hint`) in any case;
 *   - extension-only keys (interpreter, showNotifications) are not sent.
 */

export const BACKENDS = [
  "logging",
  "loguru",
  "print",
  "wandb",
  "mlflow",
  "tensorboard",
  "lightning",
  "accelerate",
] as const;
export type Backend = (typeof BACKENDS)[number];

export const SEVERITIES = ["error", "warning", "information", "hint"] as const;
export type Severity = (typeof SEVERITIES)[number];

export type RunMode = "onType" | "onSave";
export type ShowNotifications = "off" | "onError" | "onWarning" | "always";

/** The `dllog` section as the user wrote it (values are unknown until validated). */
export interface RawSettings {
  enable?: unknown;
  interpreter?: unknown;
  select?: unknown;
  extendSelect?: unknown;
  ignore?: unknown;
  backend?: unknown;
  severity?: unknown;
  run?: unknown;
  codeAction?: unknown;
  showNotifications?: unknown;
  [key: string]: unknown;
}

/** What the server receives (JSON-serialisable). */
export interface ServerSettings {
  enable: boolean;
  select?: string[];
  extendSelect?: string[];
  ignore?: string[];
  backend?: Backend;
  severity?: Record<string, Severity>;
  run: RunMode;
  codeAction: {
    fixViolation: { enable: boolean };
    disableRuleComment: { enable: boolean };
  };
}

export interface MappedSettings {
  server: ServerSettings;
  /** One human-readable line per value that was dropped or corrected. */
  problems: string[];
}

const CODE_RE = /^DLL\d{0,3}$/;

const SEVERITY_ALIASES: Record<string, Severity> = {
  error: "error",
  err: "error",
  warning: "warning",
  warn: "warning",
  information: "information",
  info: "information",
  hint: "hint",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Read a dotted key from either a nested object or a flat `{ "a.b": v }` object. */
function lookup(raw: Record<string, unknown>, dotted: string): unknown {
  if (dotted in raw) {
    return raw[dotted];
  }
  const [head, ...rest] = dotted.split(".");
  if (rest.length === 0) {
    return undefined;
  }
  const inner = raw[head];
  return isRecord(inner) ? lookup(inner, rest.join(".")) : undefined;
}

export function normalizeCode(value: string): string {
  return value.trim().toUpperCase();
}

function codeList(name: string, value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  let items: unknown[];
  if (typeof value === "string") {
    items = value.split(",");
  } else if (Array.isArray(value)) {
    items = value;
  } else {
    problems.push(`dllog.${name}: expected a list of rule codes, got ${JSON.stringify(value)}`);
    return undefined;
  }
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") {
      problems.push(`dllog.${name}: ignored ${JSON.stringify(item)} (not a rule code)`);
      continue;
    }
    const code = normalizeCode(item);
    if (code === "") {
      continue;
    }
    if (!CODE_RE.test(code)) {
      problems.push(`dllog.${name}: ignored ${JSON.stringify(item)} (expected a code like DLL200 or a prefix like DLL2)`);
      continue;
    }
    if (!out.includes(code)) {
      out.push(code);
    }
  }
  return out.length > 0 ? out : undefined;
}

function bool(name: string, value: unknown, fallback: boolean, problems: string[]): boolean {
  if (value === undefined || value === null) {
    return fallback;
  }
  if (typeof value === "boolean") {
    return value;
  }
  problems.push(`dllog.${name}: expected true or false, got ${JSON.stringify(value)}`);
  return fallback;
}

export function normalizeSeverity(value: unknown): Severity | undefined {
  return typeof value === "string" ? SEVERITY_ALIASES[value.trim().toLowerCase()] : undefined;
}

function severityTable(value: unknown, problems: string[]): Record<string, Severity> | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (!isRecord(value)) {
    problems.push(`dllog.severity: expected an object like {"DLL2": "error"}, got ${JSON.stringify(value)}`);
    return undefined;
  }
  const out: Record<string, Severity> = {};
  for (const [key, level] of Object.entries(value)) {
    const code = normalizeCode(key);
    const severity = normalizeSeverity(level);
    if (!CODE_RE.test(code)) {
      problems.push(`dllog.severity: ignored key ${JSON.stringify(key)} (expected a code like DLL200 or a prefix like DLL2)`);
      continue;
    }
    if (severity === undefined) {
      problems.push(`dllog.severity.${key}: expected error|warning|information|hint, got ${JSON.stringify(level)}`);
      continue;
    }
    out[code] = severity;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function backend(value: unknown, problems: string[]): Backend | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== "string") {
    problems.push(`dllog.backend: expected a string, got ${JSON.stringify(value)}`);
    return undefined;
  }
  const name = value.trim().toLowerCase();
  if (name === "" || name === "auto") {
    return undefined;
  }
  if ((BACKENDS as readonly string[]).includes(name)) {
    return name as Backend;
  }
  problems.push(`dllog.backend: unknown backend ${JSON.stringify(value)} (known: auto, ${BACKENDS.join(", ")})`);
  return undefined;
}

function runMode(value: unknown, problems: string[]): RunMode {
  if (value === undefined || value === null || value === "onType") {
    return "onType";
  }
  if (value === "onSave") {
    return "onSave";
  }
  problems.push(`dllog.run: expected onType or onSave, got ${JSON.stringify(value)}`);
  return "onType";
}

/** Map the user's `dllog` settings section to what the server reads. Never throws. */
export function toServerSettings(input: unknown): MappedSettings {
  const problems: string[] = [];
  const raw: Record<string, unknown> = isRecord(input) ? input : {};
  if (input !== undefined && input !== null && !isRecord(input)) {
    problems.push(`dllog: expected an object of settings, got ${JSON.stringify(input)}`);
  }
  const server: ServerSettings = {
    enable: bool("enable", raw.enable, true, problems),
    run: runMode(raw.run, problems),
    codeAction: {
      fixViolation: {
        enable: bool("codeAction.fixViolation.enable", lookup(raw, "codeAction.fixViolation.enable"), true, problems),
      },
      disableRuleComment: {
        enable: bool(
          "codeAction.disableRuleComment.enable",
          lookup(raw, "codeAction.disableRuleComment.enable"),
          true,
          problems,
        ),
      },
    },
  };
  const select = codeList("select", raw.select, problems);
  if (select) {
    server.select = select;
  }
  const extendSelect = codeList("extendSelect", raw.extendSelect, problems);
  if (extendSelect) {
    server.extendSelect = extendSelect;
  }
  const ignore = codeList("ignore", raw.ignore, problems);
  if (ignore) {
    server.ignore = ignore;
  }
  const chosen = backend(raw.backend, problems);
  if (chosen) {
    server.backend = chosen;
  }
  const severity = severityTable(raw.severity, problems);
  if (severity) {
    server.severity = severity;
  }
  return { server, problems };
}

/** `initializationOptions` for the `initialize` request. */
export function initializationOptions(input: unknown): { settings: ServerSettings } {
  return { settings: toServerSettings(input).server };
}

/** `params.settings` of `workspace/didChangeConfiguration` (the shape vscode-languageclient uses). */
export function didChangeConfigurationSettings(input: unknown): { dllog: ServerSettings } {
  return { dllog: toServerSettings(input).server };
}

export function showNotificationsMode(input: unknown): ShowNotifications {
  const value = isRecord(input) ? input.showNotifications : undefined;
  return value === "off" || value === "onWarning" || value === "always" ? value : "onError";
}

/** Whether a server message of LSP MessageType `type` (1 error … 4 log) should pop up. */
export function shouldNotify(mode: ShowNotifications, type: number): boolean {
  switch (mode) {
    case "off":
      return false;
    case "onError":
      return type === 1;
    case "onWarning":
      return type === 1 || type === 2;
    case "always":
      return type >= 1 && type <= 3;
  }
}

/** Substitute ${workspaceFolder}, ${userHome}, ${env:NAME} and a leading ~ in an interpreter path. */
export function resolveVariables(
  value: string,
  vars: { workspaceFolder?: string; userHome?: string; env?: Record<string, string | undefined> },
): string {
  let out = value.trim();
  if (vars.userHome && (out === "~" || out.startsWith("~/"))) {
    out = vars.userHome + out.slice(1);
  }
  return out.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (envName !== undefined) {
      return vars.env?.[envName] ?? "";
    }
    const replacement = name === "workspaceFolder" ? vars.workspaceFolder : vars.userHome;
    return replacement ?? whole;
  });
}

/** The exact install command the missing-package notification shows. */
export function pipInstallCommand(python: string): string {
  const quoted = /[\s'"$`\\]/.test(python) ? `"${python.replace(/(["$`\\])/g, "\\$1")}"` : python;
  return `${quoted} -m pip install 'flake8-dllog[lsp]'`;
}
