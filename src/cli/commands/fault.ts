/**
 * Test hooks of the fleet's failure tests (docs/fleet.md): with `env[name]` = N, the returned function
 * makes the process SIGKILL itself on its N-th call, inside the crash window its caller marks
 * (`LEAKSCAN_FAULT_KILL_AFTER_BATCH`: after a batch, before its epoch; `LEAKSCAN_FAULT_KILL_BEFORE_ACK`:
 * after a body's events, before its ack). Undefined when the variable is unset or not a count.
 */
export function faultKill(env: NodeJS.ProcessEnv, name: string): (() => void) | undefined {
  const at = Number(env[name]);
  if (!Number.isSafeInteger(at) || at < 1) return undefined;
  let calls = 0;
  return () => {
    if (++calls === at) process.kill(process.pid, 'SIGKILL');
  };
}
