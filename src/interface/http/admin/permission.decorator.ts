import { SetMetadata } from '@nestjs/common';
import { Permission } from '../../../domain/back-office/operator-role';

export const PERMISSION_KEY = 'back-office:permission';

// Declared on each route, not a controller, so a route added later is closed until someone decides: one
// declaring nothing is the owner's alone (decision 0074). A method's declaration wins over its controller's.
export const RequiresPermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);
