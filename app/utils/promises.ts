/** `work`'s value, or `fallback` once `ms` have passed (the work itself is not stopped). */
export async function withTimeout<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
	let timer: NodeJS.Timeout | undefined
	const late = new Promise<F>((resolve) => {
		timer = setTimeout(() => resolve(fallback), ms)
	})
	try {
		return await Promise.race([work, late])
	} finally {
		clearTimeout(timer)
	}
}
