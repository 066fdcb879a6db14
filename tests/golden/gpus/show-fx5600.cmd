gpu show fx5600
