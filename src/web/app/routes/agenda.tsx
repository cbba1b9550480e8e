import { AgendaPage } from '../../features/agenda/components/agenda-page';

export default AgendaPage;
