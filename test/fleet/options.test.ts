/**
 * The fleet's option checks, without a server: `--nats` and `--s3` URLs (credentials never in the URL),
 * and what the commands answer when the bus does not (exit 3) or an option is bad (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { LeakscanError } from '../../src/errors.js';
import { openFleetStore, parseNatsUrl, parseS3Url } from '../../src/fleet/index.js';
import { runCli } from '../cli/helpers.js';
import { tempDir } from '../serve/helpers.js';

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof LeakscanError ? e.code : String(e);
  }
  return undefined;
};

describe('fleet options', () => {
  it('takes nats:// and tls:// URLs only', () => {
    expect(parseNatsUrl('nats://127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
    expect(code(() => parseNatsUrl('http://127.0.0.1:4222'))).toBe('SDD_ERR_FLEET_OPTION');
    expect(code(() => parseNatsUrl('not a url'))).toBe('SDD_ERR_FLEET_OPTION');
  });

  it('reads an S3 URL as endpoint, bucket, region and If-Match style, and refuses credentials in it', () => {
    expect(parseS3Url('http://127.0.0.1:7480/leakscan?if-match=unquoted')).toEqual({ endpoint: 'http://127.0.0.1:7480', bucket: 'leakscan', region: 'us-east-1', ifMatch: 'unquoted' });
    expect(parseS3Url('https://s3.eu-west-1.amazonaws.com/b?region=eu-west-1')).toMatchObject({ bucket: 'b', region: 'eu-west-1', ifMatch: 'quoted' });
    for (const bad of ['http://key:secret@127.0.0.1:7480/b', 'http://127.0.0.1:7480/', 'http://127.0.0.1:7480/a/b', 'ftp://h/b', 'http://h/b?acl=1', 'http://h/b?if-match=maybe']) {
      expect(code(() => parseS3Url(bad)), bad).toBe('SDD_ERR_FLEET_OPTION');
    }
  });

  it('needs S3 credentials in the environment and the signing key in --data', async () => {
    const t = tempDir('leakscan-fleet-opts-');
    try {
      await expect(openFleetStore({ s3: 'http://127.0.0.1:1/b', dataDir: t.dir, env: {} })).rejects.toMatchObject({ code: 'SDD_ERR_FLEET_OPTION' });
    } finally {
      t.remove();
    }
  });

  it('batcher: exit 2 on a bad --nats, 3 when no NATS server answers', async () => {
    const t = tempDir('leakscan-fleet-opts-');
    try {
      const bad = await runCli(['batcher', '--nats', 'http://x', '--data', t.dir]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('SDD_ERR_FLEET_OPTION');
      const none = await runCli(['batcher', '--nats', 'nats://127.0.0.1:1', '--data', t.dir]);
      expect(none.code).toBe(3);
      expect(none.stderr).toContain('SDD_ERR_BUS_UNREACHABLE');
    } finally {
      t.remove();
    }
  });
});
