-- Headless Neovim (Debian 0.7+) end-to-end check of the dllog language server.
--
-- SERVER_PYTHON=<python with dllog> TARGET=<file.py> CODE=DLL200 \
--   nvim --headless -u NONE -i NONE -n -c "luafile tests/lsp/nvim_e2e.lua"
--
-- Opens TARGET, starts `python -m lsp_server` with Neovim's built-in LSP client, waits for a
-- CODE diagnostic, asks for code actions at it through vim.lsp.buf.code_action() (Neovim's own
-- handler applies the chosen action's WorkspaceEdit), picks the preferred "dllog (CODE): ..."
-- quick fix in vim.ui.select, waits for the server to drop that diagnostic, writes the file.
-- Prints "PASS" and exits 0, or "FAIL: ..." and exits 1.
local python = os.getenv("SERVER_PYTHON") or "python3"
local target = assert(os.getenv("TARGET"), "TARGET unset")
local code = os.getenv("CODE") or "DLL200"
local TIMEOUT = tonumber(os.getenv("LSP_TIMEOUT_MS") or "30000")

local function log(msg) io.stdout:write(msg .. "\n") end
local function fail(msg)
  io.stdout:write("FAIL: " .. msg .. "\n")
  vim.cmd("cquit! 1")
end

local function diag_code(d)
  if d.code then return tostring(d.code) end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code and tostring(lsp.code) or nil
end

local function find(bufnr)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if diag_code(d) == code then return d end
  end
  return nil
end

local function count(bufnr)
  local n = 0
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if diag_code(d) == code then n = n + 1 end
  end
  return n
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(target))
  local bufnr = vim.api.nvim_get_current_buf()
  local root = vim.fn.fnamemodify(target, ":p:h")

  local client_id = vim.lsp.start_client({
    name = "dllog",
    cmd = { python, "-m", "lsp_server" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = "work" } },
    init_options = { dllog = { debounce = 100 } },
    on_stderr = function(_, data) io.stderr:write("[server] " .. tostring(data)) end,
  })
  if not client_id then return fail("start_client returned nil") end
  vim.lsp.buf_attach_client(bufnr, client_id) -- sends didOpen once initialized

  -- 1. the server's publishDiagnostics land in vim.diagnostic
  if not vim.wait(TIMEOUT, function() return find(bufnr) ~= nil end, 50) then
    return fail("no " .. code .. " diagnostic within timeout; got " .. #vim.diagnostic.get(bufnr) .. " diagnostics")
  end
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    log(string.format("DIAG %d:%d %s %s [%s]", d.lnum + 1, d.col + 1, diag_code(d) or "?", d.message, d.source or "?"))
  end
  local d = find(bufnr)
  local n_before = count(bufnr)
  log("TARGET " .. code .. " at line " .. (d.lnum + 1) .. " (" .. n_before .. " in the file)")

  -- 2. code actions through Neovim's own UI path; answer vim.ui.select with the preferred fix
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local chosen = nil
  vim.ui.select = function(items, _, on_choice)
    local pick, pick_i
    for i, item in ipairs(items) do
      local action = item[2] or item.action or item
      log("ACTION " .. (action.title or "?") .. (action.isPreferred and " (preferred)" or ""))
      local title = action.title or ""
      if title:sub(1, #("dllog (" .. code .. "): ")) == "dllog (" .. code .. "): " then
        if not pick or action.isPreferred then pick, pick_i = item, i end
      end
    end
    if not pick then return on_choice(nil, nil) end
    chosen = (pick[2] or pick.action or pick).title
    log("CHOSEN " .. chosen)
    on_choice(pick, pick_i)
  end
  local before = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")
  vim.lsp.buf.code_action()
  local changed = vim.wait(TIMEOUT, function()
    return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n") ~= before
  end, 50)
  if not chosen then return fail("no 'dllog (" .. code .. "): ...' quick fix offered") end
  if not changed then return fail("the code action did not change the buffer") end

  -- 3. the server re-lints the edited buffer and the finding is gone from the editor too
  if not vim.wait(TIMEOUT, function() return count(bufnr) < n_before end, 50) then
    return fail(code .. " still reported after the fix")
  end

  -- 4. write the file
  vim.cmd("write")
  log("WROTE " .. target)
  vim.lsp.stop_client(client_id)
  vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
end)
if not ok then return fail(tostring(err)) end
log("PASS")
vim.cmd("qall!")
