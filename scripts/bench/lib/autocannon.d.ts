// The part of autocannon 9's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
	type Request = {
		method?: string
		path: string
		body?: string
		headers?: Record<string, string>
		setupRequest?: (request: Request) => Request
	}
	type Options = { url: string; connections?: number; duration?: number; amount?: number; timeout?: number; requests?: Request[] }
	type Result = {
		latency: { p50: number; p99: number }
		requests: { average: number }
		errors: number
		timeouts: number
		non2xx: number
	}
	function autocannon(options: Options): Promise<Result>
	export default autocannon
}
