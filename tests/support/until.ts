/** Asks `check` every quarter second until it gives a value (a throw counts as not yet). */
export async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		const value = await check().catch(() => undefined)
		if (value !== undefined) return value
		if (Date.now() > deadline) throw new Error('timed out')
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
}
