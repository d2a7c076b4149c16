// Drives a real VS Code workbench (code-server) in Debian chromium with playwright-core.
// Started by tests/e2e_vscode/test_vscode_e2e.py, which prepares the workspace, the profile and the
// code-server process and checks the JSON this script writes to $RESULT.
//
// SCENARIO=main:
//   1. open $TARGET; the Problems panel lists its DLL findings
//   2. dllog.ignore = [$IGNORE_CODE] in the user settings → those rows go; cleared → they come back
//   3. light-bulb quick fix for $QF_CODE, save → `dllog check` no longer reports it
//   4. "Disable <code> for this line" for a remaining finding, save → `# noqa: <code>`, not reported
//   5. "dllog: Fix All in File" on $FIXALL_TARGET, save → no fixable finding left
//   6. editor.codeActionsOnSave {source.fixAll.dllog} on $ONSAVE_TARGET: edit + save fixes the file
// SCENARIO=bad-interpreter: dllog.interpreter points nowhere → the notification with the pip command.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");
const { chromium } = require(process.env.PW_MODULE || "playwright-core");

const env = (name, fallback) => {
  const v = process.env[name];
  if (v === undefined || v === "") {
    if (fallback !== undefined) return fallback;
    throw new Error(`missing environment variable ${name}`);
  }
  return v;
};
const SCENARIO = env("SCENARIO", "main");
const URL = env("CS_URL");
const WS = env("WS");
const SHOTS = env("SHOTS");
const RESULT = env("RESULT");
const CHROMIUM = env("CHROMIUM", "/usr/bin/chromium");
const USER_SETTINGS = env("USER_SETTINGS");
const PYTHON = env("PYTHON", "python3");

const result = { scenario: SCENARIO, steps: [], ok: false };
const t0 = Date.now();
function step(name, data) {
  const entry = { t: +((Date.now() - t0) / 1000).toFixed(1), step: name, ...(data || {}) };
  result.steps.push(entry);
  console.log(`[${entry.t}s] ${name}${data ? " " + JSON.stringify(data) : ""}`);
  fs.writeFileSync(RESULT, JSON.stringify(result, null, 2));
}

/** `dllog check --format json` on one file of the workspace, as the user would run it. */
function dllogCheck(file) {
  const out = execFileSync(PYTHON, ["-m", "flake8_dllog.cli", "check", "--format", "json", "--exit-zero", file], {
    cwd: path.dirname(file),
    timeout: 60000,
    encoding: "utf8",
  });
  return JSON.parse(out).map((f) => ({ code: f.code, line: f.line, fixable: f.fixable, message: f.message }));
}

function userSettingsText() {
  return fs.existsSync(USER_SETTINGS) ? fs.readFileSync(USER_SETTINGS, "utf8") : "";
}

// Workspace settings: VS Code watches .vscode/settings.json of the folder (the user settings file of a
// code-server profile is not watched for outside edits).
function writeWorkspaceSettings(update) {
  const file = path.join(WS, ".vscode", "settings.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  fs.writeFileSync(file, JSON.stringify({ ...current, ...update }, null, 2));
}

async function waitFor(predicate, timeoutMs, what, page) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await predicate();
    if (last) return last;
    await page.waitForTimeout(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const watchdog = setTimeout(() => {
    console.log("FAIL driver watchdog expired");
    result.error = "driver watchdog expired";
    fs.writeFileSync(RESULT, JSON.stringify(result, null, 2));
    process.exit(2);
  }, +env("DRIVER_TIMEOUT_MS", "420000"));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]).catch(() => {});
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") console.log("[browser]", m.text().slice(0, 200));
  });
  let shotNo = 0;
  const shot = async (name) => {
    shotNo += 1;
    const file = path.join(SHOTS, `${SCENARIO}-${String(shotNo).padStart(2, "0")}-${name}.png`);
    await page.screenshot({ path: file }).catch(() => {});
    return file;
  };

  // --- workbench helpers ------------------------------------------------------------------------
  const quickInput = ".quick-input-widget input";
  async function runCommand(title) {
    await page.keyboard.press("F1");
    await page.waitForSelector(quickInput, { state: "visible", timeout: 15000 });
    await page.keyboard.type(title);
    // the row whose label is exactly the title (not "View: Close All Editor Groups" for "View: Close All Editors")
    const row = page.locator(".quick-input-list .monaco-list-row").filter({ has: page.getByText(title, { exact: true }) });
    await row.first().waitFor({ timeout: 15000 });
    await row.first().click();
    await page.waitForSelector(quickInput, { state: "hidden", timeout: 15000 }).catch(() => {});
  }
  async function openFile(rel) {
    await page.keyboard.press("Control+P");
    await page.waitForSelector(quickInput, { state: "visible", timeout: 15000 });
    await page.keyboard.type(rel);
    const base = path.basename(rel);
    // wait for the filtered result (the list first shows recently opened files)
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: base });
    await row.first().waitFor({ timeout: 20000 });
    await row.first().click();
    await page.locator(".tabs-container .tab.active", { hasText: base }).waitFor({ timeout: 20000 });
    await page.waitForSelector(".editor-instance .monaco-editor .view-lines", { timeout: 20000 });
  }
  async function showProblems() {
    if (!(await page.locator(".markers-panel").isVisible().catch(() => false))) {
      await runCommand("View: Focus Problems");
    }
    await page.waitForSelector(".markers-panel", { state: "visible", timeout: 15000 });
  }
  // Marker rows of the Problems panel (file header rows have no code) as plain text
  async function problemRows() {
    const rows = page.locator(".markers-panel .monaco-list-row");
    const n = await rows.count();
    const out = [];
    for (let i = 0; i < n; i++) {
      const text = (await rows.nth(i).innerText().catch(() => "")).replace(/\s+/g, " ").trim();
      if (/DLL\d{3}/.test(text)) out.push(text);
    }
    return out;
  }
  const rowsWith = async (code) => (await problemRows()).filter((t) => t.includes(code));
  async function waitRows(code, present, timeoutMs, what) {
    return waitFor(async () => {
      const rows = await rowsWith(code);
      return present ? (rows.length > 0 ? rows : null) : rows.length === 0 ? [] : null;
    }, timeoutMs, what, page);
  }
  // Reveal a marker in the editor (double-click focuses the editor at the range), then Ctrl+.
  async function quickFixMenuFor(code, actionPattern) {
    await showProblems();
    const row = page.locator(".markers-panel .monaco-list-row", { hasText: code });
    await row.first().waitFor({ timeout: 30000 });
    // double-click the message text (the code is a link to the rule's docs: do not hit it)
    const message = row.first().locator(".marker-message-line .marker-message, .marker-message").first();
    if (await message.count()) {
      await message.dblclick({ position: { x: 30, y: 6 } });
    } else {
      await row.first().dblclick({ position: { x: 120, y: 8 } });
    }
    await page.waitForTimeout(600);
    await page.keyboard.press("Control+.");
    const item = page.locator(".action-widget .monaco-list-row", { hasText: actionPattern });
    await item.first().waitFor({ timeout: 20000 });
    const offered = (await page.locator(".action-widget .monaco-list-row").allInnerTexts()).map((s) =>
      s.replace(/\s+/g, " ").trim());
    return { item: item.first(), offered };
  }
  async function save(file, predicate, what) {
    await page.keyboard.press("Control+S");
    return waitFor(() => {
      const text = fs.readFileSync(file, "utf8");
      return predicate(text) ? text : null;
      // Fix All runs several analyse-and-fix passes in the server's worker: 20 s was
      // exceeded once on a loaded 2-core CI machine, so allow a minute.
    }, 60000, what, page);
  }
  // Settings editor: search the setting, "Add Item", type the code, Enter.
  async function setIgnoreInSettingsUI(code) {
    try {
      await runCommand("Preferences: Open Settings (UI)");
      await page.waitForSelector(".settings-editor", { state: "visible", timeout: 20000 });
      await page.waitForTimeout(800);
      await page.locator(".settings-editor .suggest-input-container").first().click();
      await page.keyboard.type("dllog.ignore");
      const item = page.locator(".settings-editor .setting-item-list", { hasText: "Rule codes or prefixes to turn off" });
      await item.first().waitFor({ timeout: 20000 });
      await page.waitForTimeout(500);
      await item.first().locator(".setting-list-addButton, .monaco-button", { hasText: "Add Item" }).first().click();
      const input = item.first().locator(".setting-list-edit-row input").first();
      await input.waitFor({ timeout: 10000 });
      await input.fill(code);
      await page.keyboard.press("Enter");
      await item.first().locator(".setting-list-row", { hasText: code }).first().waitFor({ timeout: 10000 });
      await shot("settings-ui-ignore");
      await waitFor(() => /"dllog\.ignore"/.test(userSettingsText()) && userSettingsText().includes(code), 15000,
        "the Settings editor to write dllog.ignore to the user settings", page);
      return "settings-ui";
    } catch (e) {
      console.log("settings UI did not work, using workspace settings.json:", e.message);
      await shot("settings-ui-failed");
      await page.keyboard.press("Escape");
      writeWorkspaceSettings({ "dllog.ignore": [code] });
      return "workspace-settings.json";
    }
  }
  async function closeEditors() {
    await runCommand("View: Close All Editors");
    await page.waitForTimeout(300);
  }

  try {
    await page.goto(URL, { timeout: 60000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 90000 });
    await page.waitForSelector(".explorer-folders-view, .welcome-view", { timeout: 60000 }).catch(() => {});
    await page.waitForTimeout(1500);
    // Make sure the dllog extension is the one we installed (and is enabled)
    step("workbench loaded");
    await shot("workbench");

    if (SCENARIO === "bad-interpreter") {
      await openFile(env("TARGET_REL"));
      step("file opened");
      const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "pip install" });
      const started = Date.now();
      await toast.first().waitFor({ timeout: 60000 });
      const text = (await toast.first().innerText()).replace(/\s+/g, " ").trim();
      const buttons = await toast.first().locator(".monaco-button").allInnerTexts();
      step("notification shown", { seconds: +((Date.now() - started) / 1000).toFixed(1), text, buttons });
      result.notification = text;
      result.buttons = buttons;
      await shot("bad-interpreter-notification");
      // The "Show Output" button opens the dllog output channel with the same explanation
      const showOutput = toast.first().locator(".monaco-button", { hasText: "Show Output" });
      if (await showOutput.count()) {
        await showOutput.first().click();
        const output = page.locator(".output-view, .panel .monaco-editor", { hasText: "pip install" });
        await output.first().waitFor({ timeout: 15000 }).catch(() => {});
        result.outputShown = (await output.count()) > 0;
        step("output channel", { shown: result.outputShown });
        await shot("bad-interpreter-output");
      }
      // The workbench is still responsive (no hang): the command palette answers
      await runCommand("dllog: Show Output");
      step("workbench responsive");
      // An interpreter that exists but lacks the package: the same notification, "not installed"
      const nopkg = env("NOPKG_PYTHON", "");
      if (nopkg) {
        await runCommand("Notifications: Clear All Notifications");
        writeWorkspaceSettings({ "dllog.interpreter": nopkg });
        const toast2 = page.locator(".notifications-toasts .notification-toast", { hasText: "is not installed in the Python interpreter" });
        await toast2.first().waitFor({ timeout: 60000 });
        result.notificationNoPackage = (await toast2.first().innerText()).replace(/\s+/g, " ").trim();
        step("notification for an interpreter without flake8-dllog", { text: result.notificationNoPackage });
        await shot("no-package-notification");
        await runCommand("Notifications: Clear All Notifications");
      }
      // Pointing dllog.interpreter at a good Python restarts the server: diagnostics appear
      const good = env("GOOD_PYTHON", "");
      if (good) {
        writeWorkspaceSettings({ "dllog.interpreter": good });
        await showProblems();
        result.recoveredRows = await waitRows("DLL", true, 60000, "diagnostics after fixing dllog.interpreter");
        step("interpreter changed: server restarted", { rows: result.recoveredRows });
        await shot("interpreter-fixed");
        // dllog.enable = false stops the server and clears its diagnostics
        writeWorkspaceSettings({ "dllog.enable": false });
        try {
          await waitRows("DLL", false, 30000, "diagnostics to clear after dllog.enable=false");
        } catch (err) {
          // Seen once in ~10 CI runs under load: code-server's watcher did not report this
          // external settings.json write, made seconds after the previous one. Write it once
          // more; the assertion (diagnostics clear without a reload) stays the same.
          step("settings write not picked up; writing it again", { error: String(err) });
          writeWorkspaceSettings({ "dllog.enable": false });
          await waitRows("DLL", false, 30000, "diagnostics to clear after dllog.enable=false (second write)");
        }
        result.disabledCleared = true;
        step("dllog.enable=false cleared the diagnostics");
        await shot("disabled");
      }
      result.ok = true;
    } else {
      const targetRel = env("TARGET_REL");
      const target = path.join(WS, targetRel);
      const qfCode = env("QF_CODE");
      const ignoreCode = env("IGNORE_CODE");

      // 1. Problems panel lists the findings ------------------------------------------------
      await openFile(targetRel);
      step("target opened", { target: targetRel, before: dllogCheck(target) });
      await showProblems();
      await waitRows("DLL", true, 90000, "DLL rows in the Problems panel");
      await page.waitForTimeout(1000);
      result.problemsInitial = await problemRows();
      step("problems listed", { rows: result.problemsInitial });
      await shot("problems");

      // 2. dllog.ignore removes those diagnostics (and clearing it brings them back) ---------
      // Set through the Settings editor UI, as a user would (written to user settings by the
      // workbench itself); cleared through the workspace's .vscode/settings.json.
      result.ignoreVia = await setIgnoreInSettingsUI(ignoreCode);
      await waitRows(ignoreCode, false, 30000, `${ignoreCode} rows to disappear after dllog.ignore`);
      await page.waitForTimeout(800);
      result.problemsIgnored = await problemRows();
      step("dllog.ignore applied", { ignore: [ignoreCode], via: result.ignoreVia, rows: result.problemsIgnored });
      await shot("ignore-applied");
      writeWorkspaceSettings({ "dllog.ignore": [] });
      await waitRows(ignoreCode, true, 30000, `${ignoreCode} rows to come back after clearing dllog.ignore`);
      step("dllog.ignore cleared", { rows: await problemRows() });
      await closeEditors();
      await openFile(targetRel);

      // 3. light-bulb quick fix -------------------------------------------------------------
      const before = fs.readFileSync(target, "utf8");
      const qf = await quickFixMenuFor(qfCode, `dllog (${qfCode})`);
      step("quick fixes offered", { code: qfCode, offered: qf.offered });
      result.quickFixOffered = qf.offered;
      await shot("quickfix-menu");
      await qf.item.click();
      const afterQf = await save(target, (t) => t !== before, "the quick fix to reach the file on disk");
      fs.writeFileSync(path.join(SHOTS, "after-quickfix.py"), afterQf);
      const checkQf = dllogCheck(target);
      result.quickFix = { code: qfCode, inserted: afterQf.length - before.length, check: checkQf };
      step("quick fix applied and saved", { check: checkQf });
      await waitRows(qfCode, false, 30000, `${qfCode} to leave the Problems panel`).catch(() => {});
      await shot("quickfix-saved");

      // 4. "Disable <code> for this line" ---------------------------------------------------
      const remaining = checkQf.filter((f) => f.code !== qfCode);
      const preferred = env("DISABLE_CODE", "");
      const disable = remaining.find((f) => f.code === preferred) || remaining[0];
      if (!disable) throw new Error("no finding left to test 'Disable for this line' on");
      const dis = await quickFixMenuFor(disable.code, `Disable ${disable.code}`);
      step("disable action offered", { code: disable.code, offered: dis.offered });
      await shot("disable-menu");
      await dis.item.click();
      const afterDis = await save(target, (t) => t.includes(`noqa: ${disable.code}`) || t.includes(`noqa:${disable.code}`),
        `# noqa: ${disable.code} in the file`);
      fs.writeFileSync(path.join(SHOTS, "after-disable.py"), afterDis);
      const lineText = afterDis.split("\n")[disable.line - 1] || "";
      const checkDis = dllogCheck(target);
      result.disable = { code: disable.code, line: disable.line, lineText, check: checkDis };
      step("disable comment saved", { line: lineText, check: checkDis });
      await shot("disable-saved");

      // 5. dllog: Fix All in File -----------------------------------------------------------
      const fixRel = env("FIXALL_TARGET_REL");
      const fixFile = path.join(WS, fixRel);
      const fixBefore = fs.readFileSync(fixFile, "utf8");
      const fixCheckBefore = dllogCheck(fixFile);
      await closeEditors();
      await openFile(fixRel);
      await showProblems();
      await waitRows("DLL", true, 60000, "DLL rows for the Fix All file");
      await page.locator(".editor-instance .monaco-editor .view-lines").first().click();
      await runCommand("dllog: Fix All in File");
      await page.waitForTimeout(500);
      const afterFix = await save(fixFile, (t) => t !== fixBefore, "Fix All edits to reach the file on disk");
      fs.writeFileSync(path.join(SHOTS, "after-fixall.py"), afterFix);
      const fixCheck = dllogCheck(fixFile);
      result.fixAll = { target: fixRel, before: fixCheckBefore, check: fixCheck };
      step("fix all applied and saved", { before: fixCheckBefore.length, after: fixCheck });
      await page.waitForTimeout(1000);
      await shot("fixall-saved");

      // 6. editor.codeActionsOnSave with source.fixAll.dllog -------------------------------
      const onSaveRel = env("ONSAVE_TARGET_REL", "");
      if (onSaveRel) {
        const onSaveFile = path.join(WS, onSaveRel);
        const onSaveBefore = fs.readFileSync(onSaveFile, "utf8");
        const onSaveCheckBefore = dllogCheck(onSaveFile);
        writeWorkspaceSettings({ "editor.codeActionsOnSave": { "source.fixAll.dllog": "explicit" } });
        await page.waitForTimeout(6000);
        await closeEditors();
        await openFile(onSaveRel);
        await showProblems();
        await waitRows("DLL", true, 60000, "DLL rows for the on-save file");
        // a real edit (so the save is not a no-op): add a trailing comment on line 1
        await page.locator(".editor-instance .monaco-editor .view-lines").first().click();
        await page.keyboard.press("Control+Home");
        await page.keyboard.press("End");
        await page.keyboard.type("  # edited");
        const afterOnSave = await save(onSaveFile, (t) => t.includes("# edited") && t.length > onSaveBefore.length + 12,
          "codeActionsOnSave fixes to reach the file on disk");
        fs.writeFileSync(path.join(SHOTS, "after-onsave.py"), afterOnSave);
        const onSaveCheck = dllogCheck(onSaveFile);
        result.onSave = { target: onSaveRel, before: onSaveCheckBefore, check: onSaveCheck };
        step("codeActionsOnSave applied", { after: onSaveCheck });
        await shot("onsave-saved");
      }
      result.ok = true;
    }
    console.log("PASS");
  } catch (e) {
    result.error = String(e && e.stack ? e.stack : e);
    console.log("FAIL", e && e.message ? e.message : e);
    await shot("error");
  } finally {
    fs.writeFileSync(RESULT, JSON.stringify(result, null, 2));
    clearTimeout(watchdog);
    await browser.close().catch(() => {});
    process.exit(result.ok ? 0 : 1);
  }
})();
