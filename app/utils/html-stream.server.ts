/**
 * A rendered page without NUL bytes. React 18.3's streaming renderer fills the rest of its 2 KB
 * buffer with zeros when a multi-byte character (õ, ж) does not fit at its end, and sends them
 * (facebook/react#31134): "Главная \0страница", which a browser shows as "Главная �страница".
 * Nothing else is lost. No page holds a NUL (forms refuse control characters), and in UTF-8 a
 * zero byte is never part of another character, so dropping every one is exact.
 * The runs between the zeros are copied whole: a per-byte filter cost some 10 ms of CPU on a 60 KB
 * page with zeros, a tenth of the process's time on Russian "compare offers" (decision 0119).
 */
export function withoutNulBytes(html: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
	let zero = html.indexOf(0)
	if (zero < 0) return html
	const runs: Buffer<ArrayBuffer>[] = []
	let from = 0
	while (zero >= 0) {
		if (zero > from) runs.push(html.subarray(from, zero))
		from = zero + 1
		zero = html.indexOf(0, from)
	}
	runs.push(html.subarray(from))
	return Buffer.concat(runs)
}
