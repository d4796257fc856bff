import { Link } from 'react-router'

/** The items as a list (`item-list` rows by default), or the sentence that says there are none. */
export function ListOrEmpty<T>({
	items,
	empty,
	className = 'item-list',
	children,
}: {
	items: readonly T[]
	empty: React.ReactNode
	className?: string
	/** One `<li>` (with its key) per item. */
	children: (item: T) => React.ReactNode
}) {
	return items.length ? <ul className={className}>{items.map(children)}</ul> : <p className="empty">{empty}</p>
}

/** One row of an item list: the title and the lines under it on the left, status, figures and actions on the right. */
export function Item({ title, side, children }: { title: React.ReactNode; side: React.ReactNode; children?: React.ReactNode }) {
	return (
		<li className="item">
			<div className="item__main">
				<p className="item__title">{title}</p>
				{children}
			</div>
			<div className="item__side">{side}</div>
		</li>
	)
}

/** The tabs above a list that filter it; each is a link, so filtering works without JavaScript. */
export function FilterTabs({ label, tabs }: { label: string; tabs: ReadonlyArray<{ to: string; label: React.ReactNode; current: boolean }> }) {
	return (
		<nav className="filter-tabs" aria-label={label}>
			<ul>
				{tabs.map((tab) => (
					<li key={tab.to}>
						<Link to={tab.to} className={tab.current ? 'active' : undefined} aria-current={tab.current ? 'page' : undefined}>
							{tab.label}
						</Link>
					</li>
				))}
			</ul>
		</nav>
	)
}
