-- wrk script of the benchmark: every request carries the next of the Founders keys (so each
-- key's token buckets stay far from empty and the limiter does real work), and "{T}" in the
-- path is replaced by the next ticker. Files and path come from the environment:
--   BENCH_KEYS     plaintext keys, one a line (gen-snapshot's keys.txt)
--   BENCH_TICKERS  tickers, one a line (first word of each line is used); optional
--   BENCH_PATH     request path, e.g. /api/v1/finance/filings?ticker={T}&limit=20
--   BENCH_REQUESTS optional: a file of requests, one a line, "PATH" or "PATH<TAB>IF-NONE-MATCH";
--                  when set, requests rotate over its lines (and the keys) instead of BENCH_PATH
-- done() prints one JSON line that scripts/bench/run.ts parses.

local function lines(file)
  local out = {}
  if file == nil or file == "" then return out end
  for line in io.lines(file) do
    local word = line:match("^(%S+)")
    if word then out[#out + 1] = word end
  end
  return out
end

local keys = lines(os.getenv("BENCH_KEYS"))
local tickers = lines(os.getenv("BENCH_TICKERS"))
local template = os.getenv("BENCH_PATH") or "/"
local requests = {}

-- "PATH" or "PATH<TAB>ETAG" lines of BENCH_REQUESTS.
local listed = {}
local requests_file = os.getenv("BENCH_REQUESTS")
if requests_file ~= nil and requests_file ~= "" then
  for line in io.lines(requests_file) do
    local path, etag = line:match("^([^\t]+)\t?(.*)$")
    if path then listed[#listed + 1] = { path = path, etag = etag } end
  end
end

-- Requests are prepared once per thread, in init() (by then wrk has set the Host header from
-- the URL), so a request costs wrk the same for every target.
local n = math.max(#keys, #listed, 1)
function init(args)
  for i = 1, n do
    local path = template
    local headers = {}
    if #listed > 0 then
      local entry = listed[((i - 1) % #listed) + 1]
      path = entry.path
      if entry.etag ~= "" then headers["If-None-Match"] = entry.etag end
    elseif #tickers > 0 then
      path = path:gsub("{T}", tickers[((i - 1) % #tickers) + 1])
    end
    if #keys > 0 then headers["X-API-Key"] = keys[((i - 1) % #keys) + 1] end
    requests[i] = wrk.format("GET", path, headers)
  end
end

local counter = 0
function request()
  counter = counter + 1
  return requests[((counter - 1) % n) + 1]
end

function done(summary, latency, requests_)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p99_us":%d,"mean_us":%.1f,"max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.mean, latency.max))
end
