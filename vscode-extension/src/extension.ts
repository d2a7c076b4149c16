import * as vscode from "vscode";
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  MessageType,
  RevealOutputChannelOn,
  ServerOptions,
  ShowMessageNotification,
  State,
} from "vscode-languageclient/node";
import { checkInterpreter, getPythonApi, Interpreter, resolveInterpreter } from "./interpreter";
import {
  didChangeConfigurationSettings,
  initializationOptions,
  pipInstallCommand,
  shouldNotify,
  showNotificationsMode,
  toServerSettings,
} from "./settings";

export const SECTION = "dllog";
export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append("dllog");
const SERVER_MODULE_ARGS = ["-m", "flake8_dllog.cli", "lsp"];

let log: vscode.LogOutputChannel;
let client: LanguageClient | undefined;
let current: Interpreter | undefined;
/** Serialises start/stop/restart so quick setting changes cannot start two servers. */
let queue: Promise<void> = Promise.resolve();
/** Times of unexpected server exits, for the restart policy. */
let crashes: number[] = [];
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 3 * 60 * 1000;

function rawSettings(scope?: vscode.ConfigurationScope): unknown {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  // Plain JSON copy of the whole section (nested objects for dotted keys).
  return JSON.parse(JSON.stringify(config)) as unknown;
}

function defaultScope(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === "file") {
    return active;
  }
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

function reportSettingProblems(raw: unknown): void {
  for (const problem of toServerSettings(raw).problems) {
    log.warn(`settings: ${problem}`);
  }
}

function notify(type: MessageType, message: string): void {
  const mode = showNotificationsMode(rawSettings());
  if (!shouldNotify(mode, type)) {
    return;
  }
  const show =
    type === MessageType.Error
      ? vscode.window.showErrorMessage
      : type === MessageType.Warning
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  void show(`dllog: ${message}`, "Show Output").then((choice) => {
    if (choice === "Show Output") {
      log.show(true);
    }
  });
}

function showMissingPackage(interpreter: Interpreter, reason: string): void {
  const pip = pipInstallCommand(interpreter.python);
  const where =
    interpreter.source === "setting"
      ? "dllog.interpreter"
      : interpreter.source === "python-extension"
        ? "the Python extension's active environment"
        : "python3 on PATH";
  const problem = reason.startsWith("interpreter not found")
    ? `the Python interpreter ${interpreter.python} (${where}) was not found`
    : `flake8-dllog is not installed in the Python interpreter ${interpreter.python} (${where}): ${reason}`;
  const message =
    `dllog: ${problem}. The server needs flake8-dllog; set dllog.interpreter to a Python that has it, ` +
    `or install it with: ${pip}`;
  log.error(message);
  // Not awaited: the promise only settles when the user dismisses the notification.
  void vscode.window.showErrorMessage(message, "Show Output", "Copy Install Command", "Open Settings").then((choice) => {
    if (choice === "Show Output") {
      log.show(true);
    } else if (choice === "Copy Install Command") {
      void vscode.env.clipboard.writeText(pip);
    } else if (choice === "Open Settings") {
      void vscode.commands.executeCommand("workbench.action.openSettings", "dllog.interpreter");
    }
  });
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (!running) {
    return;
  }
  try {
    if (running.state !== State.Stopped) {
      await running.stop(5000);
    }
  } catch (err) {
    log.warn(`stopping the server: ${String(err)}`);
  }
  try {
    await running.dispose(2000);
  } catch {
    // already gone
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  await stopClient();
  crashes = [];
  const scope = defaultScope();
  const raw = rawSettings(scope);
  const mapped = toServerSettings(raw);
  if (!mapped.server.enable) {
    log.info("dllog.enable is false: server not started");
    return;
  }
  reportSettingProblems(raw);
  const interpreter = await resolveInterpreter(scope, log);
  current = interpreter;
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  log.info(`interpreter: ${interpreter.python} (from ${interpreter.source})`);
  const check = await checkInterpreter(interpreter.python, cwd);
  if (!check.ok) {
    showMissingPackage(interpreter, check.reason);
    return;
  }
  log.info(`interpreter ok: Python ${check.version ?? "?"}`);

  const serverOptions: ServerOptions = {
    command: interpreter.python,
    args: SERVER_MODULE_ARGS,
    // No `transport`: TransportKind.stdio would append `--stdio`, which `dllog lsp` does not take;
    // an Executable without it talks over stdin/stdout.
    options: { cwd, env: { ...process.env, PYTHONUNBUFFERED: "1" } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
    ],
    outputChannel: log,
    traceOutputChannel: log,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: initializationOptions(raw),
    connectionOptions: { maxRestartCount: 3 },
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        // A crashed server is restarted up to MAX_RESTARTS times in RESTART_WINDOW_MS, then left
        // stopped with an error the user can act on.
        const now = Date.now();
        crashes = crashes.filter((t) => now - t < RESTART_WINDOW_MS);
        crashes.push(now);
        if (crashes.length <= MAX_RESTARTS) {
          log.warn(`the dllog server exited unexpectedly; restarting (${crashes.length}/${MAX_RESTARTS})`);
          return { action: CloseAction.Restart, handled: true };
        }
        log.error("the dllog server keeps exiting; use 'dllog: Restart Server' after fixing the cause (see above)");
        return {
          action: CloseAction.DoNotRestart,
          message: "dllog: the server keeps exiting; see 'dllog: Show Output', then 'dllog: Restart Server'.",
        };
      },
    },
    middleware: {
      workspace: {
        // The server may pull the "dllog" section itself; answer with the mapped form.
        configuration: (params, token, next) => {
          const items = params.items;
          if (!items.some((item) => item.section === SECTION)) {
            return next(params, token);
          }
          return items.map((item) => {
            if (item.section !== SECTION) {
              return null;
            }
            const uri = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
            return toServerSettings(rawSettings(uri)).server;
          });
        },
      },
    },
  };
  const next = new LanguageClient("dllog", "dllog", serverOptions, clientOptions);
  client = next;
  try {
    await next.start();
    if (next.state !== State.Running) {
      throw new Error("the server exited during initialization");
    }
  } catch (err) {
    log.error(`the dllog server did not start with ${interpreter.python}: ${String(err)}`);
    client = undefined;
    void next.dispose(2000).catch(() => undefined);
    void vscode.window
      .showErrorMessage(
        `dllog: the server did not start with ${interpreter.python} (${String(err)}). See the output for details.`,
        "Show Output",
      )
      .then((choice) => {
        if (choice === "Show Output") {
          log.show(true);
        }
      });
    return;
  }
  // Server messages pop up according to dllog.showNotifications; all of them go to the log.
  context.subscriptions.push(
    next.onNotification(ShowMessageNotification.type, (params) => {
      const line = `server: ${params.message}`;
      if (params.type === MessageType.Error) {
        log.error(line);
      } else if (params.type === MessageType.Warning) {
        log.warn(line);
      } else {
        log.info(line);
      }
      notify(params.type, params.message);
    }),
  );
  log.info("dllog server started");
}

function enqueue(task: () => Promise<void>): Promise<void> {
  queue = queue.then(task, task).catch((err: unknown) => {
    log.error(`dllog: ${String(err)}`);
  });
  return queue;
}

async function pushSettings(): Promise<void> {
  const running = client;
  if (!running || running.state !== State.Running) {
    log.info(`settings changed while the server is not running (state ${running ? String(running.state) : "none"})`);
    return;
  }
  const raw = rawSettings(defaultScope());
  reportSettingProblems(raw);
  await running.sendNotification(DidChangeConfigurationNotification.type, {
    settings: didChangeConfigurationSettings(raw),
  });
  log.info(`settings sent to the server: ${JSON.stringify(toServerSettings(raw).server)}`);
}

async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "python") {
    void vscode.window.showInformationMessage("dllog: open a Python file to fix.");
    return;
  }
  if (!client || client.state !== State.Running) {
    void vscode.window.showWarningMessage("dllog: the server is not running (see 'dllog: Show Output').");
    return;
  }
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[] | undefined>(
      "vscode.executeCodeActionProvider",
      document.uri,
      whole,
      FIX_ALL_KIND.value,
      10,
    )) ?? [];
  const fixes = actions.filter(
    (action): action is vscode.CodeAction => "kind" in action && !!action.kind && FIX_ALL_KIND.contains(action.kind),
  );
  if (fixes.length === 0) {
    void vscode.window.setStatusBarMessage("dllog: nothing to fix in this file", 4000);
    log.info(`fix all: nothing to fix in ${document.uri.toString()}`);
    return;
  }
  const fix = fixes[0];
  if (fix.edit) {
    const applied = await vscode.workspace.applyEdit(fix.edit);
    log.info(`fix all: ${applied ? "applied" : "could not apply"} "${fix.title}" to ${document.uri.toString()}`);
  }
  if (fix.command) {
    const args: unknown[] = fix.command.arguments ?? [];
    await vscode.commands.executeCommand(fix.command.command, ...args);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  log = vscode.window.createOutputChannel("dllog", { log: true });
  context.subscriptions.push(log);
  const manifest = context.extension.packageJSON as { version?: string };
  log.info(`dllog extension ${manifest.version ?? "?"} activating`);

  context.subscriptions.push(
    vscode.commands.registerCommand("dllog.restart", () => enqueue(() => startClient(context))),
    vscode.commands.registerCommand("dllog.fixAll", fixAll),
    vscode.commands.registerCommand("dllog.showOutput", () => {
      log.show(true);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SECTION)) {
        return;
      }
      log.info("dllog settings changed");
      if (event.affectsConfiguration(`${SECTION}.interpreter`) || event.affectsConfiguration(`${SECTION}.enable`)) {
        log.info("dllog.interpreter or dllog.enable changed: restarting");
        void enqueue(() => startClient(context));
      } else {
        void enqueue(pushSettings);
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      if (!client) {
        void enqueue(() => startClient(context));
      }
    }),
    { dispose: () => void stopClient() },
  );

  const api = await getPythonApi(log);
  if (api) {
    context.subscriptions.push(
      api.environments.onDidChangeActiveEnvironmentPath((event) => {
        if (current?.source === "setting") {
          return;
        }
        log.info(`Python environment changed to ${event.path}: restarting`);
        void enqueue(() => startClient(context));
      }),
    );
  }
  // Not awaited: activation never waits on a slow interpreter or server.
  void enqueue(() => startClient(context));
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
