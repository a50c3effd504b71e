/** The official SDK's refusal of a call: its HTTP status and the first v4 error; throws when the call succeeds. */
export async function apiError(p: Promise<unknown>): Promise<{ status: number; code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { status: number; errors: { code: number; message: string }[] };
    return { status: e.status, code: e.errors[0]!.code, message: e.errors[0]!.message };
  }
  throw new Error('expected the call to fail');
}
