import { type LoaderFunctionArgs } from 'react-router'
import { ContentPage, contentPageMeta } from '~/components/content-page'
import { loadContentPage } from '~/domain/site/content.server'

// Content page, slug privacy-policy (spec §2). The path is spelt "poicy", as the spec has it.
export const loader = ({ request }: LoaderFunctionArgs) => loadContentPage(request, 'privacy-policy')

export const meta = contentPageMeta

export default ContentPage
