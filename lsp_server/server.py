"""dllog language server (pygls 2.x): diagnostics, quick fixes, fix-all, hover.

Start with ``dllog lsp`` (stdio) or ``dllog lsp --tcp 127.0.0.1:2087``; ``python -m lsp_server``
does the same.

How it works:

* Every open document has a :class:`DocState`. didOpen/didSave lint at once; didChange lints
  after a debounce (``call_later`` on the event loop, re-armed by each change). The analysis
  (:func:`flake8_dllog.engine.check_source`) and the fixes run in spawned worker processes
  (:mod:`.worker`: two on a multi-core machine, each checking half of the rules; a thread
  only as a fallback) so the event loop keeps reading and answering
  without fighting a CPU-bound thread for the GIL; when it finishes, results for a version that is no longer the
  document's are dropped, and a change that arrived meanwhile triggers one more run.
* A document that does not parse (half-typed code) keeps the last good diagnostics and gets
  one ``window/logMessage`` line per distinct error; the server never publishes DLL001 mid-edit.
* Positions are converted between the engine's code-point columns and the negotiated
  position encoding (UTF-16 unless the client offers otherwise) — see :mod:`.positions`.
* Configuration is the nearest project file (``pyproject.toml`` ``[tool.dllog]`` /
  ``.dllog.yaml``) with client settings on top (:mod:`.settings`); it is re-read on
  ``workspace/didChangeConfiguration`` and ``workspace/didChangeWatchedFiles`` (watchers for both
  file names are registered dynamically when the client allows it).
"""
from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import time
import traceback
from collections import deque
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types
from pygls import uris
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from flake8_dllog import __version__
from flake8_dllog.catalog import load_catalog
from flake8_dllog.config import Config, ConfigError, config_for_path
from flake8_dllog.config import clear_caches as clear_config_caches
from flake8_dllog.engine import PARSE_ERROR
from flake8_dllog.findings import Finding

from . import actions, worker
from .positions import Codec
from .settings import SECTION, ClientSettings, parse_settings, unwrap

log = logging.getLogger("dllog.lsp")

SOURCE = "dllog"
CONFIG_FILE_NAMES = ("pyproject.toml", ".dllog.yaml")
WATCH_REGISTRATION_ID = "dllog-config-watchers"
STATS_METHOD = "dllog/serverStats"
JOB_TIMEOUT = float(os.environ.get("DLLOG_LSP_JOB_TIMEOUT", "120"))
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


# -- protocol: answer malformed requests instead of leaving the client waiting ------------

class DllogProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                try:
                    self._send_response(data["id"], None, exc.to_response_error())
                except Exception:  # pragma: no cover - transport gone
                    pass
            raise


# -- where CPU-bound work runs ---------------------------------------------------------------

class JobError(Exception):
    """A job timed out or its worker died; the worker has been replaced."""


class Jobs:
    """Runs :mod:`.worker` functions in spawned worker processes (threads as a fallback), with a
    timeout; a hung or crashed worker is killed and replaced.

    Lane 0 runs every kind of job. When the machine has a second core, lane 1 is a second
    worker that takes part of each analysis (:func:`analyze`): the analysis is CPU-bound
    Python, so two processes are what makes it finish sooner. ``DLLOG_LSP_WORKERS=1`` keeps
    one."""

    def __init__(self) -> None:
        self.mode = os.environ.get("DLLOG_LSP_EXECUTOR", "process")
        try:
            wanted = int(os.environ.get("DLLOG_LSP_WORKERS", "0"))
        except ValueError:
            wanted = 0
        self.lanes = max(1, min(2, wanted or (os.cpu_count() or 1)))
        self._pools: list[ProcessPoolExecutor | None] = [None] * self.lanes
        self._thread: ThreadPoolExecutor | None = None
        self.worker_pids: list[int | None] = [None] * self.lanes

    @property
    def worker_pid(self) -> int | None:
        """Lane 0's worker (the one every kind of job runs on), once warmed up."""
        return self.worker_pids[0]

    @property
    def split(self) -> bool:
        """Does an analysis run in two workers?"""
        return self.mode == "process" and self.lanes > 1

    def _executor(self, lane: int = 0):
        if self.mode == "process" and self._pools[lane] is None:
            try:
                self._pools[lane] = ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=worker.init_worker
                )
            except Exception as exc:  # pragma: no cover - sandboxes without process support
                log.warning("dllog: no worker process (%s); analysing in a thread", exc)
                self.mode = "thread"
        pool = self._pools[lane] if self.mode == "process" else None
        if pool is not None:
            return pool
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dllog-analysis")
        return self._thread

    async def run(self, fn, *args, timeout: float = JOB_TIMEOUT, lane: int = 0):
        loop = asyncio.get_running_loop()
        executor = self._executor(lane)
        try:
            # (a worker that died while idle breaks its pool: submitting raises at once)
            future = loop.run_in_executor(executor, fn, *args)
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            self._reset_if_current(executor)
            raise JobError(f"{fn.__name__} took longer than {timeout:g}s; worker restarted") from None
        except BrokenProcessPool:
            self._reset_if_current(executor)
            raise JobError(f"the analysis worker died during {fn.__name__}; worker restarted") from None

    def _reset_if_current(self, executor) -> None:
        """Replace the worker a job failed on, and only that one: the other lane's job may be
        running fine (killing it would leave its future unresolved until the timeout), and a
        second failure report for a worker already replaced must not kill its successor."""
        for lane, pool in enumerate(self._pools):
            if pool is executor:
                self.reset(lane)
                return
        if executor is self._thread:
            self.reset()

    async def start(self) -> None:
        try:
            lanes = range(self.lanes if self.split else 1)
            pids = await asyncio.gather(*(self.run(worker.warm, lane=lane) for lane in lanes))
            self.worker_pids[: len(pids)] = pids
        except Exception as exc:  # pragma: no cover
            log.warning("dllog: worker warm-up failed: %s", exc)

    def reset(self, lane: int | None = None) -> None:
        """Kill and forget one lane's worker, or every worker. A new worker starts with no
        document state: its first analysis parses in full."""
        lanes = range(self.lanes) if lane is None else [lane]
        pools = [self._pools[i] for i in lanes]
        for i in lanes:
            self._pools[i] = None
            self.worker_pids[i] = None
        for pool in pools:
            if pool is None:
                continue
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                try:
                    process.kill()
                except Exception:  # pragma: no cover
                    pass

    def shutdown(self) -> None:
        self.reset()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None


# -- per-document state --------------------------------------------------------------------

@dataclass
class DocState:
    uri: str
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task | None = None
    rerun: bool = False
    changed_at: float = 0.0  # perf_counter of the change that requested the pending run
    debounce_s: float = 0.0  # the debounce that change waited
    findings: list[Finding] = field(default_factory=list)  # last good analysis
    findings_version: int | None = None
    findings_text: str | None = None
    published_version: int | None = None
    broken: str | None = None  # the parse error last logged for this document
    config_error: str | None = None


class DllogLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("dllog", __version__, protocol_cls=DllogProtocol)
        self.docs: dict[str, DocState] = {}
        self.init_settings: ClientSettings = ClientSettings()
        self.global_settings: ClientSettings = ClientSettings()
        self.folder_settings: dict[str, ClientSettings] = {}
        self.jobs = Jobs()
        self.stats: dict[str, deque] = {
            "diagnostics": deque(maxlen=5000),
            "analysis": deque(maxlen=5000),
            "code_action": deque(maxlen=5000),
        }
        self.dropped_stale = 0
        self.analyses = 0
        self._reported: set[str] = set()

    # -- plumbing ------------------------------------------------------------------------
    def shutdown(self):
        self.jobs.shutdown()
        super().shutdown()

    def report_server_error(self, error: Exception, source) -> None:
        # pygls' default pops a window/showMessage for every internal error; one log line is
        # enough and keeps a half-broken client from spamming the user.
        self.log_line(f"dllog: internal error ({getattr(source, '__name__', source)}): {error}", types.MessageType.Error)

    def log_line(self, message: str, level: types.MessageType = types.MessageType.Info) -> None:
        try:
            self.window_log_message(types.LogMessageParams(type=level, message=message))
        except Exception:  # pragma: no cover - transport gone
            log.warning("%s", message)

    def show_once(self, message: str, level: types.MessageType = types.MessageType.Error) -> None:
        self.log_line(message, level)
        if message in self._reported:
            return
        if len(self._reported) > 500:  # a client sending ever-new bad values cannot grow this
            self._reported.clear()
        self._reported.add(message)
        try:
            self.window_show_message(types.ShowMessageParams(type=level, message=message))
        except Exception:  # pragma: no cover
            pass

    @property
    def encoding(self) -> str:
        try:
            enc = self.workspace.position_encoding
        except RuntimeError:
            enc = None
        return str(enc or types.PositionEncodingKind.Utf16)

    def codec(self, text: str) -> Codec:
        return Codec(text, self.encoding)

    # -- settings and configuration ---------------------------------------------------------
    def folder_of(self, uri: str) -> str | None:
        best = None
        try:
            folders = list(self.workspace.folders)
        except RuntimeError:
            return None
        for folder_uri in folders:
            prefix = folder_uri.rstrip("/") + "/"
            if uri.startswith(prefix) and (best is None or len(folder_uri) > len(best)):
                best = folder_uri
        return best

    def settings_for(self, uri: str) -> ClientSettings:
        folder = self.folder_of(uri)
        if folder is not None and folder in self.folder_settings:
            return self.folder_settings[folder]
        return self.global_settings

    def engine_path(self, uri: str) -> str:
        path = uris.to_fs_path(uri) if uri.startswith("file:") else None
        return path or uri

    def project_config(self, uri: str) -> Config:
        path = uris.to_fs_path(uri) if uri.startswith("file:") else None
        if path:
            return config_for_path(path)
        # untitled: buffers: the configuration of the (first) workspace folder, if any
        try:
            folders = list(self.workspace.folders)
            root = self.workspace.root_path
        except RuntimeError:
            folders, root = [], None
        base = uris.to_fs_path(folders[0]) if folders else root
        return config_for_path(base) if base else Config(root=os.getcwd())

    def config_for(self, uri: str, settings: ClientSettings) -> Config:
        return settings.apply(self.project_config(uri))

    def set_settings(self, raw: Any, *, scope: str | None = None, initial: bool = False) -> ClientSettings:
        settings = parse_settings(raw)
        for problem in settings.problems:
            self.show_once(problem, types.MessageType.Warning)
        if initial:
            self.init_settings = settings
        if scope is None:
            self.global_settings = settings
        else:
            self.folder_settings[scope] = settings
        return settings

    async def pull_settings(self) -> bool:
        """Ask the client for the ``dllog`` section (global and per folder), if it can.
        True when that changed the settings in effect."""
        caps = self.client_capabilities
        if not (caps and caps.workspace and caps.workspace.configuration):
            return False
        try:
            folders = list(self.workspace.folders)
        except RuntimeError:
            folders = []
        items = [types.ConfigurationItem(section=SECTION)]
        items += [types.ConfigurationItem(scope_uri=f, section=SECTION) for f in folders]
        try:
            result = await asyncio.wait_for(
                self.workspace_configuration_async(types.ConfigurationParams(items=items)), 10
            )
        except Exception as exc:
            self.log_line(f"dllog: workspace/configuration failed: {exc}", types.MessageType.Warning)
            return False
        result = list(result or [])
        before = (self.global_settings, dict(self.folder_settings))
        if result and result[0] is not None:
            self.set_settings(result[0])
        for folder, value in zip(folders, result[1:]):
            if value is not None:
                self.set_settings(value, scope=folder)
            else:
                self.folder_settings.pop(folder, None)
        return before != (self.global_settings, self.folder_settings)

    def reload_config(self) -> None:
        clear_config_caches()
        self._reported = {m for m in self._reported if not m.startswith("dllog: configuration")}
        for st in self.docs.values():
            st.config_error = None
        self.relint_all()

    def relint_all(self) -> None:
        for uri in list(self.docs):
            self.schedule(uri, 0.0)

    # -- analysis -----------------------------------------------------------------------------
    def schedule(self, uri: str, delay: float, changed_at: float | None = None) -> None:
        st = self.docs.get(uri)
        if st is None:
            st = self.docs[uri] = DocState(uri)
        if st.timer is not None:
            st.timer.cancel()
            st.timer = None
        st.changed_at = changed_at if changed_at is not None else time.perf_counter()
        st.debounce_s = delay
        loop = asyncio.get_running_loop()
        if delay <= 0:
            st.timer = None
            self._fire(uri)
        else:
            st.timer = loop.call_later(delay, self._fire, uri)

    def _fire(self, uri: str) -> None:
        st = self.docs.get(uri)
        if st is None:
            return
        st.timer = None
        if st.task is not None and not st.task.done():
            st.rerun = True
            return
        st.task = asyncio.get_running_loop().create_task(self._run(uri))

    async def _run(self, uri: str) -> None:
        st = self.docs.get(uri)
        while st is not None:
            st.rerun = False
            if uri not in self.workspace.text_documents:
                return
            doc = self.workspace.get_text_document(uri)
            version, text = doc.version, doc.source
            changed_at, debounce_s = st.changed_at, st.debounce_s
            settings = self.settings_for(uri)
            try:
                await self._analyze_and_publish(uri, st, version, text, settings, changed_at, debounce_s)
            except Exception as exc:  # never let one document take the server down
                self.log_line(f"dllog: analysis of {uri} failed: {type(exc).__name__}: {exc}", types.MessageType.Error)
                log.debug("%s", traceback.format_exc())
            if not st.rerun or self.docs.get(uri) is not st:
                return

    async def analyze(self, uri: str, text: str, config: Config) -> tuple[list[Finding], str | None]:
        """(findings, error) for one text, computed in the worker."""
        self.analyses += 1
        path = self.engine_path(uri)
        if not self.jobs.split:
            return await self.jobs.run(worker.check, text, path, config)
        # Each worker checks its lane's rules on the same text; together they are every rule.
        parts = await asyncio.gather(
            *(self.jobs.run(worker.check, text, path, config, lane, lane=lane) for lane in (0, 1)),
            return_exceptions=True,
        )
        for part in parts:
            if isinstance(part, BaseException):
                raise part
        (first, error), (second, _) = parts  # type: ignore[misc]
        if error is not None:
            return first, error  # both report the same parse error
        return sorted(first + second, key=Finding.sort_key), None

    async def _analyze_and_publish(self, uri, st, version, text, settings, changed_at, debounce_s) -> None:
        if not settings.enable:
            self.publish(uri, version, [])
            st.findings, st.findings_version, st.findings_text = [], version, text
            return
        try:
            config = self.config_for(uri, settings)
        except ConfigError as exc:
            message = f"dllog: configuration error: {exc}"
            if st.config_error != message:
                st.config_error = message
                self.show_once(message)
            self.publish(uri, version, [])
            return
        st.config_error = None
        analysis_started = time.perf_counter()
        findings, error = await self.analyze(uri, text, config)
        analysis_time = time.perf_counter() - analysis_started
        doc_now = self.workspace.text_documents.get(uri)
        if self.docs.get(uri) is not st or doc_now is None or doc_now.version != version:
            self.dropped_stale += 1
            return  # stale: a newer version (or a close) arrived while we were busy
        if error is not None or any(f.code == PARSE_ERROR for f in findings):
            message = error or next(f.message for f in findings if f.code == PARSE_ERROR)
            line = next((f.line for f in findings if f.code == PARSE_ERROR), 1)
            if st.broken != message:
                st.broken = message
                keep = "keeping the last diagnostics" if st.findings_version is not None else "no diagnostics"
                self.log_line(f"dllog: {self.engine_path(uri)}:{line}: {message} ({keep})", types.MessageType.Warning)
            if st.published_version is None:
                self.publish(uri, version, [])
            return
        st.broken = None
        st.findings, st.findings_version, st.findings_text = list(findings), version, text
        self.publish(uri, version, self.diagnostics_json(findings, text, version))
        elapsed = time.perf_counter() - changed_at - debounce_s
        self.stats["diagnostics"].append(elapsed)
        self.stats["analysis"].append(analysis_time)

    def publish(self, uri: str, version: int | None, diagnostics: "list[types.Diagnostic] | list[dict]") -> None:
        """Send ``textDocument/publishDiagnostics``. ``diagnostics`` are lsprotocol objects
        or, on the hot path, the JSON dicts :meth:`diagnostics_json` builds."""
        st = self.docs.get(uri)
        if st is not None:
            st.published_version = version
        send_raw = getattr(self.protocol, "_send_data", None)
        if diagnostics and isinstance(diagnostics[0], dict):
            params: dict[str, Any] = {"uri": uri, "diagnostics": diagnostics}
            if version is not None:
                params["version"] = version
            if send_raw is not None:
                # Already JSON: lsprotocol's converter would only take it apart and build it
                # again (~10 ms for 400 diagnostics, on the event loop, on every keystroke).
                send_raw({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params})
                return
            self.text_document_publish_diagnostics(
                self.protocol._converter.structure(params, types.PublishDiagnosticsParams)
            )
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
        )

    def to_diagnostics(self, findings: list[Finding], text: str, version: int | None) -> list[types.Diagnostic]:
        """The findings as lsprotocol Diagnostics (what code actions compare against)."""
        structure = self.protocol._converter.structure
        return [structure(d, types.Diagnostic) for d in self.diagnostics_json(findings, text, version)]

    def diagnostics_json(self, findings: list[Finding], text: str, version: int | None) -> list[dict]:
        """The findings as LSP ``Diagnostic`` JSON objects (built directly: this runs on every
        keystroke and lsprotocol objects cost ~30 us each to build and again to serialise)."""
        codec = self.codec(text)
        rules = load_catalog().rules
        out = []
        for f in findings:
            if f.code == PARSE_ERROR:
                continue
            rule = rules.get(f.code)
            # what a code action needs to rebuild the Finding (dataclasses.asdict is ~10x slower)
            data = {
                "code": f.code, "message": f.message, "line": f.line, "column": f.column,
                "end_line": f.end_line, "end_column": f.end_column, "severity": f.severity,
                "fixable": f.fixable, "context": f.context,
            }
            diagnostic = {
                "range": codec.range_json(f.line - 1, f.column, f.end_line - 1, f.end_column),
                "message": f.message,
                "severity": SEVERITY.get(f.severity, types.DiagnosticSeverity.Warning).value,
                "code": f.code,
                "source": SOURCE,
                "data": {"version": version, "fixable": f.fixable, "finding": data},
            }
            if rule is not None:
                diagnostic["codeDescription"] = {"href": rule.docs_url}
            out.append(diagnostic)
        return out

    async def current_findings(self, uri: str) -> tuple[list[Finding], str, int | None, Config, ClientSettings] | None:
        """Findings for the document's current text (cached when the version matches)."""
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return None
        text, version = doc.source, doc.version
        settings = self.settings_for(uri)
        config = self.config_for(uri, settings)
        st = self.docs.get(uri)
        if st is not None and st.findings_version == version and st.findings_text == text:
            return st.findings, text, version, config, settings
        findings, error = await self.analyze(uri, text, config)
        if error is not None:
            return [], text, version, config, settings
        return [f for f in findings if f.code != PARSE_ERROR], text, version, config, settings

    # -- edits ----------------------------------------------------------------------------------
    def workspace_edit(self, uri: str, version: int | None, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
        caps = self.client_capabilities
        doc_changes = bool(
            caps and caps.workspace and caps.workspace.workspace_edit and caps.workspace.workspace_edit.document_changes
        )
        if doc_changes:
            return types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(
                        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                        edits=edits,
                    )
                ]
            )
        return types.WorkspaceEdit(changes={uri: edits})

    def to_text_edits(self, codec: Codec, edits) -> list[types.TextEdit]:
        """(start line0, start col, end line0, end col, text) in code points → LSP edits."""
        return [
            types.TextEdit(range=codec.range_to_client(l0, c0, l1, c1), new_text=new_text)
            for l0, c0, l1, c1, new_text in edits
        ]


server = DllogLanguageServer()


# -- lifecycle -------------------------------------------------------------------------------

@server.feature(types.INITIALIZE)
def on_initialize(ls: DllogLanguageServer, params: types.InitializeParams) -> None:
    options = params.initialization_options
    if options is not None:
        ls.set_settings(options, initial=True)
    # start the analysis worker now, so the first didOpen does not pay for it
    asyncio.get_running_loop().create_task(ls.jobs.start())


@server.feature(types.INITIALIZED)
async def on_initialized(ls: DllogLanguageServer, params: types.InitializedParams) -> None:
    caps = ls.client_capabilities
    watched = caps and caps.workspace and caps.workspace.did_change_watched_files
    if watched and watched.dynamic_registration:
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILE_NAMES]
        )
        try:
            await asyncio.wait_for(
                ls.client_register_capability_async(
                    types.RegistrationParams(
                        registrations=[
                            types.Registration(
                                id=WATCH_REGISTRATION_ID,
                                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                register_options=options,
                            )
                        ]
                    )
                ),
                10,
            )
        except Exception as exc:
            ls.log_line(f"dllog: could not register file watchers: {exc}", types.MessageType.Warning)
    if await ls.pull_settings():
        ls.relint_all()


# -- documents -------------------------------------------------------------------------------

def _is_config_file(uri: str) -> bool:
    return uri.rsplit("/", 1)[-1] in CONFIG_FILE_NAMES


def _is_python(item: types.TextDocumentItem) -> bool:
    if (item.language_id or "").lower() == "python":
        return True
    name = item.uri.rsplit("/", 1)[-1].split("?", 1)[0].lower()
    return name.endswith((".py", ".pyw", ".pyi")) and (item.language_id or "").lower() in ("", "py")


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: DllogLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _is_config_file(uri) or not _is_python(params.text_document):
        return  # only Python documents are linted (a generic client may send everything)
    ls.docs[uri] = DocState(uri)
    ls.schedule(uri, 0.0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: DllogLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri not in ls.docs:
        return
    settings = ls.settings_for(uri)
    if settings.run != "onType":
        return
    ls.schedule(uri, settings.debounce_ms / 1000.0, changed_at=time.perf_counter())


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: DllogLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _is_config_file(uri):
        ls.reload_config()
        return
    if uri in ls.docs:
        ls.schedule(uri, 0.0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: DllogLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    st = ls.docs.pop(uri, None)
    if st is None:
        return
    if st.timer is not None:
        st.timer.cancel()
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# -- configuration -------------------------------------------------------------------------------

@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: DllogLanguageServer, params: types.DidChangeConfigurationParams) -> None:
    raw = unwrap(params.settings)
    caps = ls.client_capabilities
    can_pull = bool(caps and caps.workspace and caps.workspace.configuration)
    if isinstance(raw, dict) and raw:
        ls.set_settings(raw)
        ls.folder_settings.clear()
    elif can_pull:
        await ls.pull_settings()
    # else: nothing new from the client; project files may still have changed
    ls.reload_config()


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: DllogLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(_is_config_file(change.uri) for change in params.changes) or not params.changes:
        ls.log_line("dllog: configuration file changed; re-checking open documents")
        ls.reload_config()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_folders(ls: DllogLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    for removed in params.event.removed:
        ls.folder_settings.pop(removed.uri, None)
    ls.reload_config()


# -- code actions -------------------------------------------------------------------------------

CODE_ACTION_KINDS = [types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND]


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=CODE_ACTION_KINDS, resolve_provider=True),
)
async def code_action(ls: DllogLanguageServer, params: types.CodeActionParams):
    started = time.perf_counter()
    try:
        return await _code_actions(ls, params)
    finally:
        ls.stats["code_action"].append(time.perf_counter() - started)


def _supports_resolve(ls: DllogLanguageServer) -> bool:
    caps = ls.client_capabilities
    td = caps and caps.text_document
    ca = td and td.code_action
    rs = ca and ca.resolve_support
    return bool(rs and "edit" in (rs.properties or []))


async def _code_actions(ls: DllogLanguageServer, params: types.CodeActionParams):
    uri = params.text_document.uri
    only = [str(k) for k in params.context.only] if params.context.only else None
    want_quick = actions.kind_allowed(types.CodeActionKind.QuickFix, only)
    want_all = actions.kind_allowed(actions.FIX_ALL_KIND, only)
    if not (want_quick or want_all):
        return None
    try:
        current = await ls.current_findings(uri)
    except ConfigError as exc:
        ls.show_once(f"dllog: configuration error: {exc}")
        return None
    if current is None:
        return None
    findings, text, version, config, settings = current
    codec = ls.codec(text)
    result: list[types.CodeAction] = []
    fixmod = actions.fixes_module() if settings.fix_violation else None

    if want_quick:
        start = codec.from_client(params.range.start)
        end = codec.from_client(params.range.end)
        targets = _targets(findings, start, end, params.context.diagnostics, version, codec)
        for finding, diag in targets:
            diag = diag or ls.to_diagnostics([finding], text, version)[0]
            if fixmod is not None and finding.fixable:
                result.extend(await _quick_fixes(ls, fixmod, uri, text, version, config, finding, diag, codec))
            if settings.disable_rule_comment:
                action = _noqa_action(ls, uri, version, codec, finding, diag)
                if action is not None:
                    result.append(action)

    if want_all and fixmod is not None and any(f.fixable for f in findings):
        title = "dllog: fix all auto-fixable problems"
        if only is None and _supports_resolve(ls):
            result.append(
                types.CodeAction(
                    title=title,
                    kind=actions.FIX_ALL_KIND,
                    data={"uri": uri, "version": version, "action": "fixAll"},
                )
            )
        else:
            edit = await _fix_all_edit(ls, fixmod, uri, text, version, config, codec)
            if edit is not None:
                result.append(types.CodeAction(title=title, kind=actions.FIX_ALL_KIND, edit=edit))
    return result


def _targets(findings, start, end, context_diags, version, codec):
    """Findings the request is about: those overlapping the range, plus those named by the
    context's dllog diagnostics (matched by code and position on the current text)."""
    chosen: dict[tuple, tuple[Finding, Any]] = {}
    by_key = {(f.code, f.line - 1, f.column): f for f in findings}
    for diag in context_diags or []:
        if diag.source != SOURCE or not diag.code:
            continue
        data = diag.data if isinstance(diag.data, dict) else {}
        line0, col = codec.from_client(diag.range.start)
        f = by_key.get((str(diag.code), line0, col))
        if f is None and data.get("version") == version:
            f = actions.finding_from_data(data)
        if f is None:
            continue  # a diagnostic from an older version that no longer matches
        chosen[(f.code, f.line, f.column)] = (f, diag)
    for f in findings:
        key = (f.code, f.line, f.column)
        if key in chosen:
            continue
        f_start = (f.line - 1, f.column)
        f_end = (f.end_line - 1, f.end_column)
        # overlap (touching counts, so a cursor at either end of the range finds it);
        # a cursor anywhere on the finding's first line finds it too (editors send the line)
        if (f_start <= end and start <= f_end) or (start[0] == end[0] == f.line - 1):
            chosen[key] = (f, None)
    return list(chosen.values())


def _title(finding: Finding, title: str, backend: str, alternative: bool) -> str:
    title = (title or "insert logging").strip()
    prefix = f"dllog ({finding.code}): "
    if title.startswith("dllog"):
        title = title.split(":", 1)[-1].strip()
    if len(title) > 1 and title[0].isupper() and title[1].islower():
        title = title[0].lower() + title[1:]  # "dllog (DLL200): log where ..."
    if alternative and backend and backend not in title:
        title = f"{title} with {backend}"
    return prefix + title


async def _quick_fixes(ls, fixmod, uri, text, version, config, finding, diag, codec):
    try:
        fixes = await ls.jobs.run(worker.fixes_for, text, finding, config)
    except Exception as exc:
        ls.log_line(f"dllog: no fix for {finding.code} at line {finding.line}: {type(exc).__name__}: {exc}", types.MessageType.Warning)
        return []
    out = []
    preferred_given = False
    for title, backend, preferred, raw_edits in fixes or []:
        edits = ls.to_text_edits(codec, raw_edits)
        if not edits:
            continue
        preferred = preferred and not preferred_given
        preferred_given = preferred_given or preferred
        out.append(
            types.CodeAction(
                title=_title(finding, title, backend, alternative=not preferred),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diag],
                is_preferred=preferred,
                edit=ls.workspace_edit(uri, version, edits),
            )
        )
    return out


def _noqa_action(ls, uri, version, codec, finding, diag):
    line0 = finding.line - 1
    line_text = codec.line(line0)
    spec = actions.noqa_edit(line_text, finding.code)
    if spec is None:
        return None
    start, end, new_text = spec
    edit = types.TextEdit(range=codec.range_to_client(line0, start, line0, end), new_text=new_text)
    return types.CodeAction(
        title=f"Disable {finding.code} for this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diag],
        is_preferred=False,
        edit=ls.workspace_edit(uri, version, [edit]),
    )


async def _fix_all_edit(ls, fixmod, uri, text, version, config, codec):
    try:
        new_source = await ls.jobs.run(worker.fix_all, text, ls.engine_path(uri), config)
    except Exception as exc:
        ls.log_line(f"dllog: fix-all failed: {type(exc).__name__}: {exc}", types.MessageType.Warning)
        return None
    if not isinstance(new_source, str):
        return None
    span = actions.whole_text_edit(text, new_source)
    if span is None:
        return None
    l0, c0, l1, c1, new_text = span
    edit = types.TextEdit(range=codec.range_to_client(l0, c0, l1, c1), new_text=new_text)
    return ls.workspace_edit(uri, version, [edit])


@server.feature(types.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: DllogLanguageServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    if data.get("action") != "fixAll" or action.edit is not None:
        return action
    uri = data.get("uri")
    doc = ls.workspace.text_documents.get(uri) if isinstance(uri, str) else None
    fixmod = actions.fixes_module()
    if doc is None or fixmod is None:
        return action
    text, version = doc.source, doc.version
    try:
        config = ls.config_for(uri, ls.settings_for(uri))
    except ConfigError as exc:
        ls.show_once(f"dllog: configuration error: {exc}")
        return action
    action.edit = await _fix_all_edit(ls, fixmod, uri, text, version, config, ls.codec(text))
    return action


# -- hover ----------------------------------------------------------------------------------------

@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: DllogLanguageServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    st = ls.docs.get(uri)
    doc = ls.workspace.text_documents.get(uri)
    if st is None or doc is None or not st.findings:
        return None
    text = st.findings_text if st.findings_text is not None else doc.source
    codec = ls.codec(text)
    pos = codec.from_client(params.position)
    catalog = load_catalog()
    hits = [
        f
        for f in st.findings
        if f.code in catalog.rules and (f.line - 1, f.column) <= pos <= (f.end_line - 1, f.end_column)
    ]
    if not hits:
        return None
    parts = []
    seen = set()
    for f in hits:
        if f.code in seen:
            continue
        seen.add(f.code)
        rule = catalog.rules[f.code]
        parts.append(f"**{f.code}**: {f.message}\n\n{rule.docs_markdown}\n[{f.code} documentation]({rule.docs_url})")
    first = hits[0]
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
        range=codec.range_to_client(first.line - 1, first.column, first.end_line - 1, first.end_column),
    )


# -- introspection for tests and benchmarks ----------------------------------------------------------

@server.feature(STATS_METHOD)
def server_stats(ls: DllogLanguageServer, params: Any = None) -> dict:
    """Timings (seconds) of recent diagnostics runs (didChange → publish, debounce excluded)
    and code-action requests; the process id and resident memory (kB)."""
    rss_kb = None
    try:
        with open(f"/proc/{os.getpid()}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    rss_kb = int(line.split()[1])
    except OSError:
        pass
    return {
        "pid": os.getpid(),
        "worker_pid": ls.jobs.worker_pid,
        "worker_pids": list(ls.jobs.worker_pids),
        "executor": ls.jobs.mode,
        "rss_kb": rss_kb,
        "diagnostics": list(ls.stats["diagnostics"]),
        "analysis": list(ls.stats["analysis"]),
        "code_action": list(ls.stats["code_action"]),
        "dropped_stale": ls.dropped_stale,
        "analyses": ls.analyses,
        "open_documents": len(ls.docs),
    }


def main(tcp: str | None = None) -> int:
    """Run the server on stdio, or on TCP when ``tcp`` is ``HOST:PORT``."""
    level = os.environ.get("DLLOG_LSP_LOG_LEVEL", "").upper()
    logging.basicConfig(level=level or "WARNING", format="dllog-lsp %(levelname)s %(message)s")
    if not level:
        # pygls logs a full traceback to stderr for every malformed message; the client
        # already gets one window/logMessage line from report_server_error.
        logging.getLogger("pygls").setLevel(logging.CRITICAL)
    # Everything imported so far lives as long as the server: keep the cyclic GC from
    # walking it again on every full collection (those land between keystrokes).
    gc.freeze()
    if tcp:
        host, _, port = tcp.rpartition(":")
        try:
            port_no = int(port)
        except ValueError:
            print(f"dllog: --tcp expects HOST:PORT, got {tcp!r}", file=__import__("sys").stderr)
            return 2
        server.start_tcp(host or "127.0.0.1", port_no)
    else:
        server.start_io()
    return 0
