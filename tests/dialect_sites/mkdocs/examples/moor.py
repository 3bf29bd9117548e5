from harbour import Berth

berth = Berth("north quay")
berth.assign("Kestrel")
print(berth)
