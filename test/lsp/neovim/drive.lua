-- Drives Neovim's built-in LSP client against `yaoc lsp`, headless: open a package, wait for its
-- diagnostics, hover, apply the quick fix, rename, format, and record the buffer text after each
-- step as JSON in $YAOC_NVIM_OUT (read by test/lsp/neovim.test.ts). Written for Neovim >= 0.7
-- (vim.lsp.start_client; vim.lsp.start came later). Any failure is recorded and ends the run.
local out_path = os.getenv("YAOC_NVIM_OUT")
local steps = {}
local function record(name, value) table.insert(steps, { step = name, value = value }) end
local function finish(err)
  local f = io.open(out_path, "w")
  f:write(vim.fn.json_encode({ steps = steps, error = err or vim.NIL }))
  f:close()
  vim.cmd("qa!")
end

local function run()
  local pkg = os.getenv("YAOC_NVIM_PKG")
  vim.cmd("edit " .. vim.fn.fnameescape(pkg))
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  local function text() return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") end
  local function wait(what, cond)
    if not vim.wait(30000, cond, 10) then error("timed out waiting for " .. what) end
  end
  local id = vim.lsp.start_client({
    name = "yaoc",
    cmd = { os.getenv("YAOC_NVIM_NODE"), os.getenv("YAOC_NVIM_BIN"), "lsp", "--stdio" },
    root_dir = vim.fn.fnamemodify(pkg, ":h"),
    flags = { debounce_text_changes = 0 },
  })
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  local function request(method, params)
    local res, err = client.request_sync(method, params, 20000, buf)
    if res == nil then error(method .. ": " .. tostring(err)) end
    if res.err ~= nil then error(method .. ": " .. vim.inspect(res.err)) end
    return res.result
  end

  -- 1. Diagnostics of the package as opened.
  wait("diagnostics", function() return #vim.diagnostic.get(buf) > 0 end)
  local d = vim.diagnostic.get(buf)[1]
  record("diagnostics", { count = #vim.diagnostic.get(buf), code = d.code, line = d.lnum, col = d.col })

  -- 2. Hover on the function name.
  local hover = request("textDocument/hover", { textDocument = { uri = uri }, position = { line = 2, character = 5 } })
  record("hover", hover.contents.value)

  -- 3. The quick fix offered at the diagnostic, applied; its diagnostic goes away.
  local actions = request("textDocument/codeAction", {
    textDocument = { uri = uri },
    range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = {} },
  })
  record("quickfix title", actions[1].title)
  vim.lsp.util.apply_workspace_edit(actions[1].edit, "utf-16")
  record("after quick fix", text())
  wait("the diagnostic to go", function() return #vim.diagnostic.get(buf) == 0 end)

  -- 4. Rename the function at its declaration.
  local edit = request("textDocument/rename", {
    textDocument = { uri = uri },
    position = { line = 2, character = 5 },
    newName = "fetch",
  })
  vim.lsp.util.apply_workspace_edit(edit, "utf-16")
  record("after rename", text())

  -- 5. Format the document.
  local formatting = request("textDocument/formatting", {
    textDocument = { uri = uri },
    options = { tabSize = 2, insertSpaces = true },
  })
  vim.lsp.util.apply_text_edits(formatting, buf, "utf-16")
  record("after format", text())
  wait("a clean check of the final text", function()
    return #vim.diagnostic.get(buf) == 0 and vim.lsp.util.buf_versions[buf] ~= nil
  end)
  vim.lsp.stop_client(id)
end

local ok, err = pcall(run)
if ok then finish(nil) else finish(tostring(err)) end
