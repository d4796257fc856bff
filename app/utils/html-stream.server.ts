/**
 * A rendered page without NUL bytes. React 18.3's streaming renderer fills the rest of its 2 KB
 * buffer with zeros when a multi-byte character (õ, ж) does not fit at its end, and sends them
 * (facebook/react#31134): "Главная \0страница", which a browser shows as "Главная �страница".
 * Nothing else is lost. No page holds a NUL (forms refuse control characters), and in UTF-8 a
 * zero byte is never part of another character, so dropping every one is exact.
 */
export function withoutNulBytes(html: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
	return html.includes(0) ? Buffer.from(html.filter((byte) => byte !== 0)) : html
}
