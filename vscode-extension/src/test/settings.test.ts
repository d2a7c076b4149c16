// Unit tests for the settings → server mapping (plain Node, no VS Code): `npm test`.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import {
  didChangeConfigurationSettings,
  initializationOptions,
  pipInstallCommand,
  resolveVariables,
  shouldNotify,
  showNotificationsMode,
  toServerSettings,
} from "../settings";

/** The section exactly as VS Code returns it for a user who changed nothing (package.json defaults). */
const DEFAULTS = {
  enable: true,
  interpreter: "",
  select: [],
  extendSelect: [],
  ignore: [],
  backend: "auto",
  severity: {},
  run: "onType",
  codeAction: { fixViolation: { enable: true }, disableRuleComment: { enable: true } },
  showNotifications: "onError",
};

test("defaults map to a minimal object: no select/ignore/backend/severity sent", () => {
  const { server, problems } = toServerSettings(DEFAULTS);
  assert.deepEqual(server, {
    enable: true,
    run: "onType",
    codeAction: { fixViolation: { enable: true }, disableRuleComment: { enable: true } },
  });
  assert.deepEqual(problems, []);
});

test("empty select is 'not set', never 'select nothing'", () => {
  const { server } = toServerSettings({ ...DEFAULTS, select: [] });
  assert.equal("select" in server, false);
});

test("select, extendSelect, ignore: trimmed, upper-cased, de-duplicated", () => {
  const { server, problems } = toServerSettings({
    ...DEFAULTS,
    select: [" dll2", "DLL500", "DLL2"],
    extendSelect: ["dll102"],
    ignore: ["DLL201", "dll201 "],
  });
  assert.deepEqual(server.select, ["DLL2", "DLL500"]);
  assert.deepEqual(server.extendSelect, ["DLL102"]);
  assert.deepEqual(server.ignore, ["DLL201"]);
  assert.deepEqual(problems, []);
});

test("a comma-separated string is accepted as a code list", () => {
  assert.deepEqual(toServerSettings({ ignore: "DLL200, DLL201" }).server.ignore, ["DLL200", "DLL201"]);
});

test("invalid codes are dropped and reported, valid ones kept", () => {
  const { server, problems } = toServerSettings({ ignore: ["DLL200", "E501", 7, "DLL2000"] });
  assert.deepEqual(server.ignore, ["DLL200"]);
  assert.equal(problems.length, 3);
  assert.match(problems[0], /dllog\.ignore: ignored "E501"/);
});

test("a list of only invalid codes is not sent at all", () => {
  const { server } = toServerSettings({ select: ["E501"] });
  assert.equal("select" in server, false);
});

test("non-list code setting is reported", () => {
  const { server, problems } = toServerSettings({ select: { DLL: true } });
  assert.equal("select" in server, false);
  assert.match(problems[0], /dllog\.select: expected a list/);
});

test("backend: auto/empty are left out, known names pass, unknown reported", () => {
  assert.equal("backend" in toServerSettings({ backend: "auto" }).server, false);
  assert.equal("backend" in toServerSettings({ backend: "" }).server, false);
  assert.equal(toServerSettings({ backend: "WandB" }).server.backend, "wandb");
  assert.equal(toServerSettings({ backend: "tensorboard" }).server.backend, "tensorboard");
  const bad = toServerSettings({ backend: "neptune" });
  assert.equal("backend" in bad.server, false);
  assert.match(bad.problems[0], /unknown backend "neptune"/);
});

test("severity: keys normalised, level spellings accepted, bad entries dropped", () => {
  const { server, problems } = toServerSettings({
    severity: { dll2: "Error", DLL500: "hint", DLL3: "info", DLL4: "warn", DLL6: "fatal", E5: "error" },
  });
  assert.deepEqual(server.severity, { DLL2: "error", DLL500: "hint", DLL3: "information", DLL4: "warning" });
  assert.equal(problems.length, 2);
});

test("severity that is not an object is reported and not sent", () => {
  const { server, problems } = toServerSettings({ severity: "error" });
  assert.equal("severity" in server, false);
  assert.equal(problems.length, 1);
});

test("run: onSave passes, junk falls back to onType with a problem", () => {
  assert.equal(toServerSettings({ run: "onSave" }).server.run, "onSave");
  const bad = toServerSettings({ run: "always" });
  assert.equal(bad.server.run, "onType");
  assert.match(bad.problems[0], /dllog\.run/);
});

test("codeAction toggles: nested objects and flat dotted keys both work", () => {
  const nested = toServerSettings({
    codeAction: { fixViolation: { enable: false }, disableRuleComment: { enable: false } },
  }).server;
  assert.deepEqual(nested.codeAction, { fixViolation: { enable: false }, disableRuleComment: { enable: false } });
  const flat = toServerSettings({ "codeAction.fixViolation.enable": false }).server;
  assert.deepEqual(flat.codeAction, { fixViolation: { enable: false }, disableRuleComment: { enable: true } });
});

test("enable false is passed; non-boolean enable falls back to true with a problem", () => {
  assert.equal(toServerSettings({ enable: false }).server.enable, false);
  const bad = toServerSettings({ enable: "no" });
  assert.equal(bad.server.enable, true);
  assert.equal(bad.problems.length, 1);
});

test("extension-only keys are not sent to the server", () => {
  const { server } = toServerSettings({ ...DEFAULTS, interpreter: "/usr/bin/python3", showNotifications: "always" });
  assert.equal("interpreter" in server, false);
  assert.equal("showNotifications" in server, false);
});

test("garbage input never throws", () => {
  for (const input of [undefined, null, 3, "x", [], { codeAction: 5 }, { severity: null }]) {
    const { server } = toServerSettings(input);
    assert.equal(server.enable, true);
  }
});

test("wire shapes: initializationOptions and didChangeConfiguration", () => {
  const raw = { ...DEFAULTS, ignore: ["DLL201"] };
  assert.deepEqual(initializationOptions(raw), { settings: toServerSettings(raw).server });
  assert.deepEqual(didChangeConfigurationSettings(raw), { dllog: toServerSettings(raw).server });
  // JSON round trip (what goes over the wire) keeps everything
  assert.deepEqual(JSON.parse(JSON.stringify(initializationOptions(raw))), initializationOptions(raw));
});

test("showNotifications modes", () => {
  assert.equal(showNotificationsMode({}), "onError");
  assert.equal(showNotificationsMode({ showNotifications: "always" }), "always");
  assert.equal(showNotificationsMode({ showNotifications: "bogus" }), "onError");
  assert.equal(shouldNotify("off", 1), false);
  assert.equal(shouldNotify("onError", 1), true);
  assert.equal(shouldNotify("onError", 2), false);
  assert.equal(shouldNotify("onWarning", 2), true);
  assert.equal(shouldNotify("onWarning", 3), false);
  assert.equal(shouldNotify("always", 3), true);
  assert.equal(shouldNotify("always", 4), false);
});

test("interpreter path variables", () => {
  const vars = { workspaceFolder: "/ws", userHome: "/home/u", env: { VENV: "/opt/venv" } };
  assert.equal(resolveVariables("${workspaceFolder}/.venv/bin/python", vars), "/ws/.venv/bin/python");
  assert.equal(resolveVariables("~/py/bin/python", vars), "/home/u/py/bin/python");
  assert.equal(resolveVariables("${env:VENV}/bin/python", vars), "/opt/venv/bin/python");
  assert.equal(resolveVariables("${userHome}/x", vars), "/home/u/x");
  assert.equal(resolveVariables(" python3 ", vars), "python3");
});

test("pip command names the interpreter exactly", () => {
  assert.equal(pipInstallCommand("/opt/venv/bin/python"), "/opt/venv/bin/python -m pip install 'flake8-dllog[lsp]'");
  assert.equal(pipInstallCommand("/my envs/python"), "\"/my envs/python\" -m pip install 'flake8-dllog[lsp]'");
});
