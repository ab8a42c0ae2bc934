import Redis from 'ioredis';
import { TokenBuckets } from './token-buckets';

// Atomic in Redis: the read, the decision and the write of one take. Numbers go back as strings
// (Redis would truncate a Lua number to an integer).
const TAKE = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local base = math.max(tat, now)
local free = math.floor((60000 - (base - now)) * limit / 60000 + 1e-9)
local taken = 0
if ARGV[3] == '1' or free >= 1 then
  taken = 1
  local nextTat = base + 60000 / limit
  redis.call('SET', KEYS[1], string.format('%.3f', nextTat), 'PX', math.ceil(nextTat - now) + 1000)
end
return { string.format('%.3f', base - now), taken }
`;

const GIVE_BACK = `
local now = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local earlier = tat - 60000 / tonumber(ARGV[2])
if earlier <= now then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], string.format('%.3f', earlier), 'PX', math.ceil(earlier - now) + 1000)
end
return 0
`;

export class RedisTokenBuckets implements TokenBuckets {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async take(key: string, limit: number, nowMs: number, force: boolean): Promise<{ aheadMs: number; taken: boolean }> {
    const answer = (await this.redis.eval(TAKE, 1, this.prefix + key, nowMs, limit, force ? '1' : '0')) as [
      string,
      number,
    ];
    return { aheadMs: Number(answer[0]), taken: answer[1] === 1 };
  }

  async giveBack(key: string, limit: number, nowMs: number): Promise<void> {
    await this.redis.eval(GIVE_BACK, 1, this.prefix + key, nowMs, limit);
  }

  async aheadOf(key: string, nowMs: number): Promise<number> {
    const tat = await this.redis.get(this.prefix + key);
    return tat === null ? 0 : Number(tat) - nowMs;
  }
}
