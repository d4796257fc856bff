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
