/**
 * A titled block of a signed-in page (`panel`, or `card` with `className`): the heading names the
 * region; `actions` stand beside the heading.
 */
export function Panel({
	id,
	title,
	as: Tag = 'section',
	className = 'panel',
	titleClassName,
	actions,
	children,
}: {
	id: string
	title: React.ReactNode
	as?: 'section' | 'aside'
	className?: string
	titleClassName?: string
	actions?: React.ReactNode
	children: React.ReactNode
}) {
	const heading = (
		<h2 id={id} className={titleClassName}>
			{title}
		</h2>
	)
	return (
		<Tag className={className} aria-labelledby={id}>
			{actions ? (
				<div className="panel__head">
					{heading}
					{actions}
				</div>
			) : (
				heading
			)}
			{children}
		</Tag>
	)
}

/** One row of a facts list (`<dl className="facts">`): a label and its value. */
export function Fact({ label, className, valueClassName, children }: { label: React.ReactNode; className?: string; valueClassName?: string; children: React.ReactNode }) {
	return (
		<div className={className}>
			<dt>{label}</dt>
			<dd className={valueClassName}>{children}</dd>
		</div>
	)
}
