import { NotFoundScreen } from './not-found';

// Replaced by the feature that owns this page.
export default NotFoundScreen;
