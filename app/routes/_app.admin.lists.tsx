import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Field, FormAlert, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { referenceListNames, ReferenceItemSchema, type AdminReferenceList } from '~/domain/admin'
import { listReferenceItems, saveReferenceItem, type AdminReferenceItem } from '~/domain/admin-catalog.server'
import { DomainError } from '~/domain/errors'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { pageMeta } from '~/utils/meta'
import { decodeId, encodeId } from '~/utils/public-id'
import { or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

const listOf = (value: string | null): AdminReferenceList =>
	(referenceListNames as readonly string[]).includes(value ?? '') ? (value as AdminReferenceList) : 'services'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const list = listOf(new URL(request.url).searchParams.get('list'))
	const items = await listReferenceItems(list)
	return { meta: { title: t('lists.title') }, list, items: items.map((item) => ({ ...item, slug: encodeId(item.id) })) }
}

export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const list = listOf(String(formData.get('list') ?? ''))
	const rawItem = String(formData.get('item') ?? '')
	const itemId = rawItem === 'new' ? null : decodeId(rawItem)
	if (rawItem !== 'new' && !itemId) throw new Response('Not found', { status: 404 })
	const formId = rawItem
	const submission = parseWithZod(formData, { schema: ReferenceItemSchema })
	if (submission.status !== 'success') return data({ formId, result: submission.reply() }, { status: 400 })
	try {
		await or404(saveReferenceItem(admin.id, list, itemId, submission.value))
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return data({ formId, result: submission.reply({ fieldErrors: { code: [error.key] } }) }, { status: error.status })
	}
	return redirectWithToast(`/admin/lists?list=${list}`, { type: 'success', key: 'admin:lists.saved' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

function ItemForm({ list, item }: { list: AdminReferenceList; item: (AdminReferenceItem & { slug: string }) | null }) {
	const { t } = useTranslation('admin')
	const actionData = useActionData<typeof action>()
	const formId = item?.slug ?? 'new'
	const [form, fields] = useForm({
		id: `item-${list}-${formId}`,
		lastResult: actionData?.formId === formId ? actionData.result : undefined,
		defaultValue: item
			? {
					code: item.code,
					nameEt: item.nameEt,
					nameEn: item.nameEn,
					nameRu: item.nameRu,
					sortOrder: String(item.sortOrder),
					active: item.active ? 'on' : undefined,
				}
			: { sortOrder: '0', active: 'on' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ReferenceItemSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<li className={item ? 'admin-list-item' : 'admin-list-item admin-list-item--new'}>
			<Form method="post" className="admin-row-form" {...getFormProps(form)}>
				<FormSecurity />
				<input type="hidden" name="list" value={list} />
				<input type="hidden" name="item" value={formId} />
				<FormAlert errors={form.errors} />
				<Field label={t('lists.code')} required inputProps={getInputProps(fields.code, { type: 'text' })} errors={fields.code.errors} />
				{(['nameEt', 'nameEn', 'nameRu'] as const).map((name) => (
					<Field key={name} label={t(`packages.${name}`)} required inputProps={getInputProps(fields[name], { type: 'text' })} errors={fields[name].errors} />
				))}
				<Field
					className="field--small"
					label={t('ads.sortOrder')}
					inputProps={{ ...getInputProps(fields.sortOrder, { type: 'number' }), min: 0 }}
					errors={fields.sortOrder.errors}
				/>
				<label className="admin-check">
					<input {...getInputProps(fields.active, { type: 'checkbox' })} />
					{t('lists.active')}
				</label>
				<button type="submit" className={item ? 'button button--ghost' : 'button button--primary'}>
					{t(item ? 'lists.save' : 'lists.add')}
				</button>
			</Form>
		</li>
	)
}

export default function AdminListsPage() {
	const { t } = useTranslation('admin')
	const { list, items } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('lists.title')} subtitle={t('lists.subtitle')} />
			<nav className="filter-tabs" aria-label={t('lists.label')}>
				<ul>
					{referenceListNames.map((name) => (
						<li key={name}>
							<Link to={`?list=${name}`} className={name === list ? 'active' : undefined} aria-current={name === list ? 'page' : undefined}>
								{t(`lists.names.${name}`)}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<h2>{t('lists.addTitle')}</h2>
			<ul className="admin-list">
				<ItemForm key={`${list}-new`} list={list} item={null} />
			</ul>
			<h2>{t(`lists.names.${list}`)}</h2>
			<ul className="admin-list">
				{items.map((item) => (
					<ItemForm key={item.id} list={list} item={item} />
				))}
			</ul>
		</>
	)
}
