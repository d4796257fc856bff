/**
 * One instance per process, even when Vite re-evaluates modules in development.
 * The key includes whatever makes the instance distinct (for example the database target).
 */
export function singleton<T>(key: string, create: () => T): T {
	const store = ((globalThis as { __autohubSingletons?: Map<string, unknown> }).__autohubSingletons ??= new Map())
	if (!store.has(key)) store.set(key, create())
	return store.get(key) as T
}

export function forgetSingleton(key: string) {
	;(globalThis as { __autohubSingletons?: Map<string, unknown> }).__autohubSingletons?.delete(key)
}

/**
 * `load` run on the first call, its value kept for every later one (a module loaded when first
 * needed, not at start: decision 0094). Calls made while it loads share the one attempt. A failed
 * attempt is not kept: the next call tries again.
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
	let loading: Promise<T> | undefined
	return () =>
		(loading ??= Promise.resolve()
			.then(load)
			.catch((error: unknown) => {
				loading = undefined
				throw error
			}))
}
