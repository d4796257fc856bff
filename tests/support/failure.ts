/** What `run` throws (the test fails if it does not). */
export async function failure(run: () => Promise<unknown>): Promise<unknown> {
	try {
		await run()
	} catch (error) {
		return error
	}
	throw new Error('expected a failure')
}
