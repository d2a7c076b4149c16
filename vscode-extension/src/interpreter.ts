/** Which Python runs the dllog server, and whether flake8-dllog is importable there. */
import { execFile } from "node:child_process";
import * as os from "node:os";
import * as vscode from "vscode";
import { PythonExtension } from "@vscode/python-extension";
import { resolveVariables } from "./settings";

export type InterpreterSource = "setting" | "python-extension" | "default";

export interface Interpreter {
  /** Executable path or command name. */
  python: string;
  source: InterpreterSource;
}

export const DEFAULT_PYTHON = "python3";
export const CHECK_TIMEOUT_MS = 15000;

let pythonApi: PythonExtension | undefined;
let pythonApiTried = false;

/** The Python extension's API, when that extension is installed (activates it if needed). */
export async function getPythonApi(log: vscode.LogOutputChannel): Promise<PythonExtension | undefined> {
  if (pythonApiTried) {
    return pythonApi;
  }
  pythonApiTried = true;
  if (!vscode.extensions.getExtension("ms-python.python")) {
    log.info("Python extension (ms-python.python) not installed; using dllog.interpreter or python3");
    return undefined;
  }
  try {
    pythonApi = await withTimeout(PythonExtension.api(), 20000, "Python extension API");
  } catch (err) {
    log.warn(`Python extension API unavailable: ${String(err)}`);
    pythonApi = undefined;
  }
  return pythonApi;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${what}: no answer after ${ms} ms`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export async function resolveInterpreter(
  resource: vscode.Uri | undefined,
  log: vscode.LogOutputChannel,
): Promise<Interpreter> {
  const folder = resource ? vscode.workspace.getWorkspaceFolder(resource) : vscode.workspace.workspaceFolders?.[0];
  const configured = vscode.workspace.getConfiguration("dllog", resource ?? folder?.uri).get<string>("interpreter", "");
  if (configured && configured.trim() !== "") {
    return {
      python: resolveVariables(configured, {
        workspaceFolder: folder?.uri.fsPath,
        userHome: os.homedir(),
        env: process.env,
      }),
      source: "setting",
    };
  }
  const api = await getPythonApi(log);
  if (api) {
    try {
      const envPath = api.environments.getActiveEnvironmentPath(resource ?? folder?.uri);
      const env = await withTimeout(api.environments.resolveEnvironment(envPath), 20000, "resolveEnvironment");
      const executable = env?.executable.uri?.fsPath;
      if (executable) {
        return { python: executable, source: "python-extension" };
      }
      log.warn(`Python extension has no usable active environment (${envPath.path}); using ${DEFAULT_PYTHON}`);
    } catch (err) {
      log.warn(`Could not resolve the Python extension's environment: ${String(err)}`);
    }
  }
  return { python: DEFAULT_PYTHON, source: "default" };
}

export interface CheckResult {
  ok: boolean;
  /** One line: why the check failed (empty when ok). */
  reason: string;
  /** The interpreter's version line when it ran. */
  version?: string;
}

/** Run `<python> -c "import flake8_dllog, lsp_server"` with a timeout; never hangs, never throws. */
export function checkInterpreter(python: string, cwd: string | undefined, timeoutMs = CHECK_TIMEOUT_MS): Promise<CheckResult> {
  const script =
    "import sys, flake8_dllog, lsp_server, pygls; " +
    "print(sys.version.split()[0], getattr(flake8_dllog, '__version__', '?'))";
  return new Promise<CheckResult>((resolve) => {
    try {
      execFile(
        python,
        ["-c", script],
        { cwd, timeout: timeoutMs, killSignal: "SIGKILL", windowsHide: true, maxBuffer: 1 << 20 },
        (error, stdout, stderr) => {
          if (!error) {
            resolve({ ok: true, reason: "", version: stdout.trim() });
            return;
          }
          const err = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
          let reason: string;
          if (err.code === "ENOENT") {
            reason = `interpreter not found: ${python}`;
          } else if (err.code === "EACCES") {
            reason = `interpreter not executable: ${python}`;
          } else if (err.killed || err.signal) {
            reason = `interpreter did not answer within ${timeoutMs / 1000} s: ${python}`;
          } else {
            const lines = stderr.trim().split(/\r?\n/);
            reason = lines[lines.length - 1] || err.message;
          }
          resolve({ ok: false, reason });
        },
      );
    } catch (err) {
      resolve({ ok: false, reason: String(err) });
    }
  });
}
