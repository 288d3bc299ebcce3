-- wrk's requests pipelined: `wrk -s eng/bench/pipeline.lua URL -- DEPTH` sends DEPTH requests per write.
init = function(args)
  local depth = tonumber(args[1]) or 1
  local r = {}
  for i = 1, depth do r[i] = wrk.format() end
  req = table.concat(r)
end
request = function() return req end
