/**
 * One HTTP exchange with an upstream, its body read whole. A GET that got no answer for a reason other than its
 * deadline (often a reused keep-alive connection just closed) is made once more; anything else once, since a repeated
 * order could be performed twice.
 */
export async function fetchReadingAgain(
  url: URL,
  init: RequestInit & { method: 'GET' | 'POST' },
): Promise<{ response: Response; text: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, init);
      return { response, text: await response.text() };
    } catch (error) {
      if (init.method !== 'GET' || attempt > 1 || init.signal?.aborted) throw error;
    }
  }
}
